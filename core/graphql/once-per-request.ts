import { Directive } from 'type-graphql';

/** The `@tag` of a mutation the gateway runs at most once per request (logins, password resets, key exchange). */
export const ONCE_PER_REQUEST_TAG = 'once-per-request';

/**
 * Marks a mutation that sends mail, checks a secret or opens a session: the gateway refuses a request
 * naming it twice (aliases included), so one request cannot send a thousand reset mails or guesses.
 */
export const OncePerRequest = (): MethodDecorator & PropertyDecorator => Directive(`@tag(name: "${ONCE_PER_REQUEST_TAG}")`);
