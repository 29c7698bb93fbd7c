import { randomBytes } from 'node:crypto';
import { Principal } from '../../core/auth/principal';
import { call } from '../../core/call-type';
import { CallClient, DomainCalls, handle, remoteCall } from '../../core/domain-calls';
import { AppError, badRequest } from '../../core/errors';
import { GraphqlOperation, OperationExecutor } from '../../core/graphql-http';
import { supergraphAs } from '../../core/supergraph-client';

/** A call as an owner's contract declares it, and as a consumer makes it when the owner runs elsewhere. */
const DOUBLE = call<{ n: number }, { doubled: number }>('test.double');
const DOUBLE_REMOTELY = remoteCall({
  type: DOUBLE,
  document: 'mutation Double($n: Int!) { double(n: $n) }',
  variables: ({ n }) => ({ n }),
  answer: (data: { double: number }) => ({ doubled: data.double }),
});
const CONSUMER = new Principal('service', 'internal:test', 'internal', ['test:double']);

/** A client of the consumer, with the gateway it reaches when the owner is not in its process (answering `double`, recording what it was sent). */
function consumer(calls: DomainCalls) {
  const sent: Array<{ operation: GraphqlOperation; authorization?: string }> = [];
  const gateway: OperationExecutor = async (operation, caller) => {
    sent.push({ operation, authorization: caller.authorization });
    return { data: { double: (operation.variables!.n as number) * 2 } };
  };
  return { client: new CallClient(calls, supergraphAs(CONSUMER, { jwtSecret: randomBytes(32).toString('hex') }, gateway), CONSUMER), sent };
}

describe('declared calls between domains, in-process or through the gateway', () => {
  it('runs the owner\'s handler when it is registered in the process, as the consumer\'s principal, without the gateway', async () => {
    const calls = new DomainCalls();
    const callers: Principal[] = [];
    calls.register([
      handle(DOUBLE, async ({ n }, { caller }) => {
        callers.push(caller);
        return { doubled: n * 2 };
      }),
    ]);
    const { client, sent } = consumer(calls);
    expect(client.local(DOUBLE)).toBe(true);
    expect(await client.run(DOUBLE_REMOTELY, { n: 21 }, 'r1')).toEqual({ doubled: 42 });
    expect(await client.call(DOUBLE, { n: 2 })).toEqual({ doubled: 4 });
    expect(callers).toEqual([CONSUMER, CONSUMER]);
    expect(sent).toEqual([]);
  });

  it('runs the supergraph operation when the owner runs elsewhere, with the consumer\'s own token', async () => {
    const { client, sent } = consumer(new DomainCalls());
    expect(client.local(DOUBLE)).toBe(false);
    expect(await client.run(DOUBLE_REMOTELY, { n: 5 })).toEqual({ doubled: 10 });
    expect(sent).toEqual([{ operation: { query: DOUBLE_REMOTELY.document, variables: { n: 5 } }, authorization: expect.stringMatching(/^Bearer /) }]);
    await expect(client.call(DOUBLE, { n: 1 })).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('passes the owner\'s refusals on as they are; any other failure says nothing of the effect (UNAVAILABLE or INTERNAL)', async () => {
    const calls = new DomainCalls();
    const failures: unknown[] = [badRequest('Not that number', 'n'), Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), new TypeError('a bug')];
    calls.register([
      handle(DOUBLE, async () => {
        throw failures.shift();
      }),
    ]);
    const { client } = consumer(calls);
    await expect(client.run(DOUBLE_REMOTELY, { n: 1 })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Not that number', fieldErrors: [{ field: 'n', message: 'Not that number' }] });
    await expect(client.run(DOUBLE_REMOTELY, { n: 1 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const bug = await client.run(DOUBLE_REMOTELY, { n: 1 }).catch((error: AppError) => error);
    expect(bug).toMatchObject({ code: 'INTERNAL', message: 'The call test.double failed' });
  });

  it('answers each call once per process, and forgets a domain\'s handlers when it stops', async () => {
    const calls = new DomainCalls();
    const unregister = calls.register([handle(DOUBLE, async ({ n }) => ({ doubled: n * 2 }))]);
    expect(() => calls.register([handle(DOUBLE, async ({ n }) => ({ doubled: n }))])).toThrow('The call test.double is answered twice in this process');
    unregister();
    const { client, sent } = consumer(calls);
    expect(await client.run(DOUBLE_REMOTELY, { n: 3 })).toEqual({ doubled: 6 });
    expect(sent).toHaveLength(1);
  });
});
