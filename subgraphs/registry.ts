import { Config, Env, loadConfig } from '../core/config';
import { DomainModule, ModuleStart } from '../core/module';
import { DomainSurface, mergeSurfaces } from '../core/rest/surface';
import { authModule } from './auth/module';
import { campaignModule } from './campaign/module';
import { clusterModule } from './cluster/module';
import { notificationModule } from './notification/module';
import { pointModule } from './point/module';
import { rewardModule } from './reward/module';
import { webhookModule } from './webhook/module';
import { bookingModule } from './booking/module';
import { analyticsModule } from './analytics/module';

/**
 * Every domain of the platform, one line each. The platform start, the supergraph, the configuration
 * (`<NAME>_PORT`, `<NAME>_HOST`, `<NAME>_URL` and each domain's own settings) and docker-compose.yml are
 * derived from this list.
 */
export const MODULES: readonly DomainModule<any, any>[] = [authModule, pointModule, clusterModule, rewardModule, notificationModule, webhookModule, bookingModule, campaignModule, analyticsModule];

/** The platform's configuration: the kernel's settings and every registered domain's. */
export const loadPlatformConfig = (env: Env = process.env): Config => loadConfig(env, MODULES);

export const moduleNamed = (name: string): DomainModule<any, any> | undefined => MODULES.find((module) => module.contract.name === name);

/** `<NAME>_PORT` of every domain set to `port` (`'0'`: any free port, as tests and benchmarks want). */
export const everyDomainPort = (port: string): Env => Object.fromEntries(MODULES.map((module) => [`${module.contract.name.toUpperCase()}_PORT`, port]));

/**
 * The platform's outside: every domain's REST routes, v1 components and public events, merged (each path,
 * component and public event type once). The REST adapter serves it, the webhook domain fans its public
 * events out, and `npm run schema` describes it.
 */
export const platformSurface = (): Required<DomainSurface> =>
  mergeSurfaces(MODULES.flatMap((module) => (module.surface ? [module.surface] : [])));

/** What every domain's start receives from the registry: every contract and every public event. */
export const platformTables = (): Pick<ModuleStart<unknown>, 'contracts' | 'publicEvents'> => ({
  contracts: MODULES.map((module) => module.contract),
  publicEvents: platformSurface().publicEvents,
});
