import { bookingModule } from '../subgraphs/booking/module';
import { BOOKING_COMPLETION_QUEUE, BookingService } from '../subgraphs/booking/services/booking.service';
import { parseBookingSettings } from '../subgraphs/booking/settings';
import { BOOKINGS, bookingClient, VENUES } from './support/bookings';
import { useModuleJobs } from './support/module-jobs';
import { usePlatform } from './support/use-platform';
import { sendAndWait } from './support/wait-for';

const { platform, admin, member } = usePlatform({ staff: ['admin'], members: 1 });
const { api, createVenue, book, bookSoon } = bookingClient(platform, admin, member);

/** The domain's ORM and the job queue, opened by the test itself to run its jobs directly (as the platform's schedule does). */
const jobs = useModuleJobs(bookingModule);

const eventTypesOf = async (bookingId: string) =>
  (await platform.sql.query(`select type from booking.outbox_event where payload->>'bookingId' = $1 order by sequence`, [bookingId])).rows.map((row) => row.type);
const heldIn = async (venueId: string) =>
  (await platform.sql.query(`select to_char(starts_at, 'HH24:MI') as time, held from booking.venue_slot where venue_id = $1 and held > 0 order by starts_at`, [venueId])).rows;
const confirmedAt = async (venueId: string) =>
  Number((await platform.sql.query(`select count(*) as n from booking.booking where venue_id = $1 and status = 'confirmed'`, [venueId])).rows[0].n);
const checkIn = (booking: { id: string; check_in_code: string }, token = member.token) => api('POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: booking.check_in_code }, token);

describe('check-in window', () => {
  it('refuses a check-in days ahead with 422 NOT_ELIGIBLE and records nothing; from 30 minutes before the start it is accepted', async () => {
    const venue = await createVenue();
    const ahead = (await book(venue.id, {}, member.token)).body.data;
    for (const token of [member.token, admin.token]) {
      const early = await checkIn(ahead, token);
      expect(early.status).toBe(422);
      expect(early.body.error.code).toBe('NOT_ELIGIBLE');
      expect(early.body.error.message).toMatch(/30 minutes before/);
    }
    expect((await api('GET', `${BOOKINGS}/${ahead.id}`)).body.data).toMatchObject({ status: 'confirmed', checked_in_at: null });
    expect(await eventTypesOf(ahead.id)).toEqual(['booking.created']);
    // A wrong code is still named as such, in the window or not.
    expect((await api('POST', `${BOOKINGS}/${ahead.id}/checkin`, { check_in_code: 'WRONG123' }, member.token)).body.error.code).toBe('INVALID_CHECK_IN_CODE');

    const soon = await bookSoon({}, member.token);
    const checkedIn = await checkIn(soon);
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.body.data.checked_in_at).toMatch(/Z$/);
    expect(await eventTypesOf(soon.id)).toEqual(['booking.created', 'booking.checked_in']);
  });
});

describe('a checked-in booking', () => {
  it('can no longer be cancelled or changed: 409 INVALID_STATE, its places and check-in kept', async () => {
    const booking = await bookSoon({ guests: 2 }, member.token);
    expect((await checkIn(booking)).status).toBe(200);
    for (const token of [member.token, admin.token]) {
      const cancel = await api('POST', `${BOOKINGS}/${booking.id}/cancel`, { reason: 'gone home' }, token);
      expect({ status: cancel.status, code: cancel.body.error?.code }).toEqual({ status: 409, code: 'INVALID_STATE' });
      for (const change of [{ guests: 1 }, { special_requests: 'window seat' }]) {
        const patch = await api('PATCH', `${BOOKINGS}/${booking.id}`, change, token);
        expect({ change, status: patch.status, code: patch.body.error?.code }).toEqual({ change, status: 409, code: 'INVALID_STATE' });
      }
    }
    const kept = (await api('GET', `${BOOKINGS}/${booking.id}`)).body.data;
    expect(kept).toMatchObject({ status: 'confirmed', guests: 2, special_requests: null, cancel_reason: null, cancelled_at: null, checked_in_at: expect.stringMatching(/Z$/) });
    expect(await heldIn(booking.venue_id)).toEqual([{ time: booking.time, held: 2 }]);
    expect(await eventTypesOf(booking.id)).toEqual(['booking.created', 'booking.checked_in']);
  });
});

describe('the completion job', () => {
  it('completes a booking once its slot has ended (a no-show when never checked in); then cancel, check-in and PATCH are 409 INVALID_STATE', async () => {
    const visited = await bookSoon({}, member.token);
    expect((await checkIn(visited)).status).toBe(200);
    const missed = await bookSoon({}, member.token, visited.venue_id);

    // The platform's own job, run through its queue now: both bookings are still to come.
    await sendAndWait(jobs.boss(), BOOKING_COMPLETION_QUEUE, {});
    for (const booking of [visited, missed]) expect((await api('GET', `${BOOKINGS}/${booking.id}`)).body.data).toMatchObject({ status: 'confirmed', completed_at: null });

    // The same job an hour later (both slots end within 15 minutes).
    const completed = await new BookingService(jobs.em(), undefined, parseBookingSettings({}, [])).completeEnded(new Date(Date.now() + 3_600_000));
    expect(completed).toBeGreaterThanOrEqual(2);
    expect((await api('GET', `${BOOKINGS}/${visited.id}`, undefined, member.token)).body.data).toMatchObject({ status: 'completed', completed_at: expect.stringMatching(/Z$/), no_show: false });
    expect((await api('GET', `${BOOKINGS}/${missed.id}`, undefined, member.token)).body.data).toMatchObject({ status: 'completed', checked_in_at: null, no_show: true });

    for (const booking of [visited, missed]) {
      for (const [method, path, body] of [
        ['POST', `${BOOKINGS}/${booking.id}/cancel`, {}],
        ['POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: booking.check_in_code }],
        ['PATCH', `${BOOKINGS}/${booking.id}`, { guests: 1 }],
      ] as const) {
        const response = await api(method, path, body, member.token);
        expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({ method, path, status: 409, code: 'INVALID_STATE' });
      }
    }
    const listed = await api('GET', `${BOOKINGS}?venue_id=${visited.venue_id}&status=completed`);
    expect(listed.body.pagination.total).toBe(2);
  });
});

describe('venue changes racing bookings', () => {
  /**
   * 30 bookings of one place at the venue (18:00 or 19:00, three days ahead) sent at once, the venue
   * change sent after the first 10; every booking is made (201) or finds the venue changed under it.
   */
  async function race(venueId: string, change: () => Promise<{ status: number; body: any }>) {
    const send = (index: number) => book(venueId, { guests: 1, time: index % 2 ? '19:00' : '18:00' });
    const first = Array.from({ length: 10 }, (_, index) => send(index));
    const changed = change();
    const rest = Array.from({ length: 20 }, (_, index) => send(10 + index));
    const bookings = await Promise.all([...first, ...rest]);
    return { changed: await changed, made: bookings.filter((response) => response.status === 201).length, bookings };
  }

  it('a removal either goes through with no confirmed booking at the venue, or is refused 409 with the venue live', async () => {
    for (let round = 0; round < 4; round++) {
      const venue = await createVenue({ capacity: 100 });
      const { changed, made, bookings } = await race(venue.id, () => api('DELETE', `${VENUES}/${venue.id}`));
      expect(bookings.filter((response) => response.status !== 201).map((response) => response.body.error?.code)).toEqual(Array(30 - made).fill('VENUE_NOT_FOUND'));
      expect(await confirmedAt(venue.id)).toBe(made);
      if (changed.status === 204) expect({ round, made }).toEqual({ round, made: 0 });
      else {
        expect({ round, status: changed.status, code: changed.body.error?.code }).toEqual({ round, status: 409, code: 'INVALID_STATE' });
        expect((await api('GET', `${VENUES}/${venue.id}`)).status).toBe(200);
      }
    }
  });

  it('a change of opening hours either goes through with no confirmed booking at the venue, or is refused 409 with the hours kept', async () => {
    for (let round = 0; round < 4; round++) {
      const venue = await createVenue({ capacity: 100 });
      // From 10:30 the slots start at half past: 18:00 and 19:00 are no slot starts (422) once the change is made.
      const { changed, made, bookings } = await race(venue.id, () => api('PATCH', `${VENUES}/${venue.id}`, { opening_time: '10:30' }));
      expect(bookings.filter((response) => response.status !== 201).map((response) => response.body.error?.code)).toEqual(Array(30 - made).fill('NO_AVAILABILITY'));
      expect(await confirmedAt(venue.id)).toBe(made);
      const hours = (await api('GET', `${VENUES}/${venue.id}`)).body.data.opening_time;
      if (changed.status === 200) expect({ round, made, hours }).toEqual({ round, made: 0, hours: '10:30' });
      else expect({ round, status: changed.status, code: changed.body.error?.code, hours }).toEqual({ round, status: 409, code: 'INVALID_STATE', hours: '10:00' });
    }
  });
});
