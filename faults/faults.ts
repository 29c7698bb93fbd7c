import { DeliveryCounter } from './delivery-counter';
import { PlatformCluster } from './platform-cluster';
import { PostgresCluster } from './postgres-cluster';

/** What a fault acts on. */
export interface FaultTargets {
  postgres: PostgresCluster;
  platform: PlatformCluster;
  receiver: DeliveryCounter;
}

/**
 * One fault of an operator's bad day: `inject` does it and resolves when it is over (what was broken is
 * back), with the moment it ended when that was earlier (a platform restarted: when it was started).
 */
export interface Fault {
  name: string;
  /** Only a killed platform may refuse connections on its REST port. */
  refusalsAllowed: boolean;
  inject: (targets: FaultTargets) => Promise<number | void>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const POSTGRES_FAST_RESTART: Fault = {
  name: 'PostgreSQL fast restart',
  refusalsAllowed: false,
  inject: ({ postgres }) => postgres.restartFast(),
};

export const POSTGRES_KILLED: Fault = {
  name: 'PostgreSQL killed (-9), restarted after 5 s',
  refusalsAllowed: false,
  inject: async ({ postgres }) => {
    postgres.killHard();
    await pause(5_000);
    await postgres.start();
  },
};

export const POSTGRES_PAUSED: Fault = {
  name: 'PostgreSQL paused 10 s',
  refusalsAllowed: false,
  inject: async ({ postgres }) => {
    postgres.pause();
    await pause(10_000);
    postgres.resume();
  },
};

export const BACKENDS_TERMINATED: Fault = {
  name: 'backends terminated',
  refusalsAllowed: false,
  inject: async ({ postgres }) => void (await postgres.terminateBackends()),
};

export const WORKER_KILLED: Fault = {
  name: 'one worker killed (-9)',
  refusalsAllowed: false,
  inject: async ({ platform }) => void platform.killOneWorker(),
};

export const PLATFORM_KILLED: Fault = {
  name: 'whole platform killed (-9), started again',
  refusalsAllowed: true,
  inject: async ({ platform }) => {
    await platform.stop('SIGKILL');
    const startedAt = Date.now();
    await platform.start();
    return startedAt;
  },
};

export const RECEIVER_DOWN: Fault = {
  name: 'webhook receiver down 60 s',
  refusalsAllowed: false,
  inject: async ({ receiver }) => {
    await receiver.stop();
    await pause(60_000);
    await receiver.start();
  },
};

/** `FAULTS=short` (CI): a PostgreSQL restart and a worker kill; else every fault of the issue. */
export const faultsToRun = (short: boolean): Fault[] =>
  short ? [POSTGRES_FAST_RESTART, WORKER_KILLED] : [POSTGRES_FAST_RESTART, POSTGRES_KILLED, POSTGRES_PAUSED, BACKENDS_TERMINATED, WORKER_KILLED, PLATFORM_KILLED, RECEIVER_DOWN];
