import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../core/config';
import { useTempDirs } from '../support/temp-dirs';

const tempDir = useTempDirs('loyalty-config');

describe('configuration', () => {
  it('reports every invalid variable at once, by name', () => {
    const attempt = () =>
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        BOOTSTRAP_ADMIN_EMAIL: 'a@b.co',
        PASSWORD_SCRYPT_COST: '1000',
        SHUTDOWN_DELAY_SECONDS: '-1',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT must be a port number');
      expect(message).toContain('DATABASE_URL must use postgres: or postgresql:');
      expect(message).toContain('JWT_SECRET must be at least 32 characters');
      expect(message).toContain('BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together');
      expect(message).toContain('PASSWORD_SCRYPT_COST must be a power of two');
      expect(message).toContain('SHUTDOWN_DELAY_SECONDS must be a non-negative integer, got "-1"');
    }
  });

  it('binds every part to loopback unless its *_HOST opens it', () => {
    const defaults = loadConfig({ DATA_DIR: tempDir() });
    expect(defaults.hosts).toEqual({ rest: '127.0.0.1', gateway: '127.0.0.1' });
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0', GATEWAY_HOST: '::' }).hosts).toEqual({ rest: '0.0.0.0', gateway: '::' });
  });

  it('generates a JWT secret once and keeps it under DATA_DIR when none is given', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('uses the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.port).toBe(3000);
    expect(config.gatewayPort).toBe(4000);
    expect(config.gatewayUrl).toBe('http://127.0.0.1:4000/graphql');
    expect(config.rateLimit.standardPerHour).toBe(1000);
    expect(config.passwordScryptCost).toBe(131072);
    expect(config.deadlines.shutdownDelayMs).toBe(0);
    expect(loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_DELAY_SECONDS: '15' }).deadlines.shutdownDelayMs).toBe(15_000);
  });
});
