declare const SIGNATURE: unique symbol;

/**
 * A call a domain answers for the others, as its contract declares it: its name (`point.spend`)
 * carrying, for the compiler only, what it takes and answers. Pure, so that any domain may import the
 * contract that declares it (`POINT.calls.spend`), as its events (core/events/event-type.ts). How calls
 * are answered and made: core/domain-calls.ts.
 */
export type CallType<Input, Output> = string & { readonly [SIGNATURE]: (input: Input) => Output };

/** Declares a call with its input and answer: `spend: call<PointSpendAsked, PointSpent>('point.spend')`. */
export const call = <Input, Output>(name: string): CallType<Input, Output> => name as CallType<Input, Output>;
