import { Redemption } from '../entities/redemption';

/**
 * The points between the steps of a redemption where the crash and race tests act: `reserved` once its
 * stock is taken and its PENDING row committed (step 1), `spending` when an actor that found it PENDING
 * is about to spend its points, `spent` once its points are spent (step 2), before the one statement
 * of step 3.
 */
export type RedemptionStep = 'reserved' | 'spending' | 'spent';
type StepHook = (redemption: Redemption) => Promise<void>;

const hooks = new Map<RedemptionStep, StepHook>();

/**
 * Failure injection for the tests of the redemption saga, which run the platform in their own process:
 * a hook set here runs once, at its step of the next redemption that reaches it, and may throw (the
 * process "dies" there: the open transaction rolls back, as on a kill, and nothing compensates) or act
 * (spend the member's points behind the redemption's back). It can be set only under NODE_ENV=test;
 * nothing outside the process reaches it (no variable, header or argument), and with no hook set a
 * step costs one map lookup.
 */
export const redemptionTestHooks = {
  once(step: RedemptionStep, hook: StepHook): void {
    if (process.env.NODE_ENV !== 'test') throw new Error('Redemption test hooks exist only under NODE_ENV=test');
    hooks.set(step, hook);
  },
  clear(): void {
    hooks.clear();
  },
};

/** Runs the hook set for `step`, if any, once. */
export async function atRedemptionStep(step: RedemptionStep, redemption: Redemption): Promise<void> {
  const hook = hooks.get(step);
  if (!hook) return;
  hooks.delete(step);
  await hook(redemption);
}
