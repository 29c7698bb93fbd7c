import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createLogger } from '../../core/logger';
import { createMailer } from '../../core/messaging/mailer';
import { createSmsSender } from '../../core/messaging/sms';
import { LocalFileStorage } from '../../core/storage/file-storage';
import { objectStorageIn } from '../../core/storage/object-storage';
import { loadConfig } from '../../core/config';
import { useTempDirs } from '../support/temp-dirs';

const tempDir = useTempDirs('private-files');
const logger = createLogger('test', 'silent');
const modeOf = (path: string) => statSync(path).mode & 0o777;

// Under DATA_DIR live reset codes (mail outbox), phone numbers (SMS outbox), reports of customers, uploads and
// secrets: owner-only, whatever the umask; DATA_DIR itself stays reachable (the embedded PostgreSQL lives under it).
describe('files the platform writes under DATA_DIR are owner-only', () => {
  let umask: number;
  beforeAll(() => (umask = process.umask(0o022)));
  afterAll(() => process.umask(umask));

  it('the mail and SMS outboxes: directory 0700, files 0600', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    await createMailer(undefined, 'from@example.com', dataDir, logger).send({ to: 'a@example.com', subject: 'Reset', text: 'code 123456' });
    await createSmsSender(dataDir, logger).send('+66800000000', 'code 654321');
    expect(modeOf(join(dataDir, 'outbox'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'outbox', 'mail.jsonl'))).toBe(0o600);
    expect(modeOf(join(dataDir, 'outbox', 'sms.jsonl'))).toBe(0o600);
    expect(modeOf(dataDir)).toBe(0o755);
  });

  it('closes an outbox an older version left readable by all', async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'outbox'), { mode: 0o755 });
    writeFileSync(join(dataDir, 'outbox', 'mail.jsonl'), '', { mode: 0o644 });
    chmodSync(join(dataDir, 'outbox'), 0o755);
    await createMailer(undefined, 'from@example.com', dataDir, logger).send({ to: 'a@example.com', subject: 'Reset', text: 'code 123456' });
    expect(modeOf(join(dataDir, 'outbox'))).toBe(0o700);
    expect(readFileSync(join(dataDir, 'outbox', 'mail.jsonl'), 'utf8')).toContain('code 123456');
  });

  it('report files in object storage, and their directories', async () => {
    const dataDir = tempDir();
    await objectStorageIn(dataDir).write('reports/r1.csv', Readable.from(['a,b\n']));
    expect(modeOf(join(dataDir, 'objects'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'objects', 'reports'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'objects', 'reports', 'r1.csv'))).toBe(0o600);
  });

  it('uploads, and their directories', async () => {
    const dataDir = tempDir();
    const storage = new LocalFileStorage(join(dataDir, 'uploads'), 'http://localhost');
    const url = await storage.save({ buffer: Buffer.from('image'), extension: 'png' });
    const key = url.replace('http://localhost/files/', '');
    expect(modeOf(join(dataDir, 'uploads'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'uploads', key.split('/')[0]))).toBe(0o700);
    expect(modeOf(join(dataDir, 'uploads', key))).toBe(0o600);
  });

  it('the generated JWT secret', () => {
    const dataDir = tempDir();
    loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(join(dataDir, 'jwt-secret'))).toBe(0o600);
  });
});
