import { notFoundCode, notFoundCodes, Route } from '../../core/rest/route';
import { mergeSurfaces } from '../../core/rest/surface';
import { string } from '../../core/rest/json-schema';

const route = (method: Route['method'], path: string): Route => ({ method, path, document: 'query Health { health { ok } }', envelope: 'data' });

describe('merging the domains\' surfaces', () => {
  it('keeps routes in order and components and public events by name', () => {
    const merged = mergeSurfaces([
      { routes: [route('get', '/x/stats'), route('get', '/x/:id')], components: { X: string() } },
      { routes: [route('post', '/x/:id')], components: { Y: string() }, publicEvents: [{ internal: 'x.made', type: 'x.created', data: () => ({}) }] },
    ]);
    expect(merged.routes.map(({ method, path }) => `${method} ${path}`)).toEqual(['get /x/stats', 'get /x/:id', 'post /x/:id']);
    expect(Object.keys(merged.components)).toEqual(['X', 'Y']);
    expect(merged.publicEvents.map((event) => event.type)).toEqual(['x.created']);
  });

  it('refuses a path, a component or a public event declared twice', () => {
    expect(() => mergeSurfaces([{ routes: [route('get', '/x')] }, { routes: [route('get', '/x')] }])).toThrow('Two surfaces declare the route GET /x');
    expect(() => mergeSurfaces([{ routes: [], components: { X: string() } }, { routes: [], components: { X: string() } }])).toThrow('component X');
    const event = { internal: 'x.made', type: 'x.created', data: () => ({}) };
    expect(() => mergeSurfaces([{ routes: [], publicEvents: [event] }, { routes: [], publicEvents: [{ ...event, internal: 'y.made' }] }])).toThrow('public event x.created');
  });

  it('refuses a route that would answer the requests of a later one', () => {
    expect(() => mergeSurfaces([{ routes: [route('get', '/x/:id'), route('get', '/x/stats')] }])).toThrow('/x/:id before /x/stats');
    expect(() => mergeSurfaces([{ routes: [route('get', '/x/:id'), route('post', '/x/stats')] }])).not.toThrow();
  });
});

describe('a v1 route\'s _NOT_FOUND code', () => {
  const table = { Venue: 'VENUE_NOT_FOUND', Member: 'CUSTOMER_NOT_FOUND' };

  it('is the entity\'s in a table, its first entry for an entity it does not name, and NOT_FOUND without one', () => {
    expect(notFoundCode(table, 'Member')).toBe('CUSTOMER_NOT_FOUND');
    expect(notFoundCode(table, 'Booking')).toBe('VENUE_NOT_FOUND');
    expect(notFoundCode(table)).toBe('VENUE_NOT_FOUND');
    expect(notFoundCode('REWARD_NOT_FOUND', 'Member')).toBe('REWARD_NOT_FOUND');
    expect(notFoundCode(undefined, 'Member')).toBe('NOT_FOUND');
    expect(notFoundCodes(table)).toEqual(['VENUE_NOT_FOUND', 'CUSTOMER_NOT_FOUND']);
  });
});
