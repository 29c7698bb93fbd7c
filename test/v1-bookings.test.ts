import PgBoss from 'pg-boss';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { createLogger } from '../core/logger';
import { MEMBER_ACTIVITY_QUEUE } from '../subgraphs/point/services/member-activity';
import { BOOKINGS, bookingClient, dayFromNow, OPEN_ALL_DAY, VENUES } from './support/bookings';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { sendAndWait, waitFor } from './support/wait-for';

const { platform, admin, tenant, member, members } = usePlatform({ staff: ['admin', 'tenant'], members: 2 });
const { api, createVenue, book, bookSoon, detailFields } = bookingClient(platform, admin, member);
/** The service day `book` books by default. */
const DAY = dayFromNow(3);

const heldIn = async (venueId: string) =>
  (await platform.sql.query(`select to_char(starts_at, 'HH24:MI') as time, held from booking.venue_slot where venue_id = $1 and held > 0 order by starts_at`, [venueId])).rows;

describe('venues', () => {
  it('creates a venue with 60-minute slots by default, each with its free slots of the next 7 days', async () => {
    const response = await api('POST', VENUES, { name: 'Hall', type: 'event', address: 'Silom', phone: '021234567', capacity: 50, opening_time: '18:00', closing_time: '21:00' });
    expect(response.status).toBe(201);
    const venue = response.body.data;
    expect(venue).toMatchObject({ name: 'Hall', type: 'event', capacity: 50, opening_time: '18:00', closing_time: '21:00', slot_minutes: 60 });
    expect(venue.available_slots).toHaveLength(7);
    expect(venue.available_slots[3]).toEqual({ date: DAY, times: ['18:00', '19:00', '20:00'] });
  });

  it('names every bad field at once, and needs the admin scope', async () => {
    const bad = await api('POST', VENUES, { type: 'bar', capacity: 0, opening_time: '25:00', slot_minutes: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(bad.body)).toEqual(['capacity', 'closing_time', 'name', 'opening_time', 'slot_minutes', 'type']);
    expect((await api('POST', VENUES, { name: 'x', type: 'event', capacity: 1, opening_time: '10:00', closing_time: '11:00' }, member.token)).status).toBe(403);
    expect((await api('POST', VENUES, { name: 'x', type: 'event', capacity: 1, opening_time: '10:00', closing_time: '11:00' }, tenant.token)).status).toBe(403);
  });

  it('changes and removes a venue; an unknown one is 404 VENUE_NOT_FOUND', async () => {
    const venue = await createVenue();
    const patched = await api('PATCH', `${VENUES}/${venue.id}`, { capacity: 12, name: 'Riverside 2' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ capacity: 12, name: 'Riverside 2', opening_time: '10:00' });
    expect((await api('GET', `${VENUES}/${venue.id}`, undefined, member.token)).body.data).toMatchObject({ id: venue.id, capacity: 12 });
    expect((await api('DELETE', `${VENUES}/${venue.id}`)).status).toBe(204);
    expect((await api('GET', `${VENUES}/${venue.id}`)).body.error.code).toBe('VENUE_NOT_FOUND');
    const gone = await api('PATCH', `${VENUES}/${venue.id}`, { capacity: 3 });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('VENUE_NOT_FOUND');
    expect((await api('GET', `${VENUES}/not-an-id/availability`)).body.error.code).toBe('VENUE_NOT_FOUND');
  });

  it('refuses to remove a venue or change its hours while it has upcoming bookings', async () => {
    const venue = await createVenue();
    expect((await book(venue.id)).status).toBe(201);
    expect((await api('DELETE', `${VENUES}/${venue.id}`)).status).toBe(409);
    expect((await api('PATCH', `${VENUES}/${venue.id}`, { opening_time: '11:00' })).body.error.code).toBe('INVALID_STATE');
  });

  it('lists venues by type, location and availability; customers may read them', async () => {
    const tag = `Soi ${Date.now()}`;
    const open = await createVenue({ type: 'service', address: `${tag} North`, capacity: 1, opening_time: '10:00', closing_time: '11:00' });
    const full = await createVenue({ type: 'service', address: `${tag} South`, capacity: 1, opening_time: '10:00', closing_time: '11:00' });
    for (let days = 0; days < 7; days++) {
      const response = await book(full.id, { date: dayFromNow(days), time: '10:00', guests: 1 });
      expect([201, 422]).toContain(response.status); // today's 10:00 may have started
    }
    const listed = await api('GET', `${VENUES}?type=service&location=${encodeURIComponent(tag.toLowerCase())}`, undefined, member.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((venue: { id: string }) => venue.id).sort()).toEqual([open.id, full.id].sort());
    expect(listed.body.pagination).toMatchObject({ page: 1, total: 2 });
    const available = await api('GET', `${VENUES}?location=${encodeURIComponent(tag)}&available=true`);
    expect(available.body.data.map((venue: { id: string }) => venue.id)).toEqual([open.id]);
    const none = await api('GET', `${VENUES}?location=${encodeURIComponent(tag)}&available=false`);
    expect(none.body.data.map((venue: { id: string }) => venue.id)).toEqual([full.id]);
    expect(detailFields((await api('GET', `${VENUES}?available=maybe&type=bar`)).body)).toEqual(['available']);
  });

  it('answers availability per day and slot, bounded to 31 days', async () => {
    const venue = await createVenue({ capacity: 4, opening_time: '20:00', closing_time: '01:00' });
    expect((await book(venue.id, { time: '23:00', guests: 3, duration: 90 })).status).toBe(201);
    const response = await api('GET', `${VENUES}/${venue.id}/availability?date_from=${DAY}&date_to=${DAY}&type=table`, undefined, member.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      venue_id: venue.id,
      availability: [
        {
          date: DAY,
          slots: [
            { time: '20:00', available: 4, capacity: 4 },
            { time: '21:00', available: 4, capacity: 4 },
            { time: '22:00', available: 4, capacity: 4 },
            { time: '23:00', available: 1, capacity: 4 },
            { time: '00:00', available: 1, capacity: 4 },
          ],
        },
      ],
    });
    const tooLong = await api('GET', `${VENUES}/${venue.id}/availability?date_from=${dayFromNow(1)}&date_to=${dayFromNow(40)}`);
    expect(tooLong.status).toBe(400);
    expect(detailFields(tooLong.body)).toEqual(['date_to']);
    const badType = await api('GET', `${VENUES}/${venue.id}/availability?type=room`, undefined, member.token);
    expect(badType.status).toBe(400);
    expect(badType.body.error.code).toBe('VALIDATION_ERROR');
    expect(detailFields(badType.body)).toEqual(['type']);
    const week = await api('GET', `${VENUES}/${venue.id}/availability`);
    expect(week.body.data.availability).toHaveLength(7);
  });
});

describe('bookings', () => {
  it('books a confirmed place with a check-in code and its QR image', async () => {
    const venue = await createVenue();
    const response = await book(venue.id, { special_requests: 'window seat' });
    expect(response.status).toBe(201);
    const booking = response.body.data;
    expect(booking).toMatchObject({ customer_id: member.id, venue_id: venue.id, status: 'confirmed', date: DAY, time: '19:00', guests: 2, special_requests: 'window seat' });
    expect(booking.check_in_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(booking.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(booking.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(await heldIn(venue.id)).toEqual([{ time: '19:00', held: 2 }]);
  });

  it('lets a customer book for itself only; unknown customers and venues are 404', async () => {
    const venue = await createVenue();
    expect((await book(venue.id, {}, member.token)).status).toBe(201);
    const other = members[1];
    const forOther = await book(venue.id, { customer_id: other.id }, member.token);
    expect(forOther.status).toBe(403);
    const unknown = await book(venue.id, { customer_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    const noVenue = await book('00000000-0000-4000-8000-000000000000');
    expect(noVenue.body.error.code).toBe('VENUE_NOT_FOUND');
    const bad = await api('POST', BOOKINGS, { venue_id: venue.id, type: 'room', date: '2026-02-30', time: '7pm', guests: 0 });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['customer_id', 'date', 'guests', 'time', 'type']);
  });

  it('refuses full slots, closed hours, off-grid times and started slots with 422 NO_AVAILABILITY', async () => {
    const venue = await createVenue({ capacity: 3 });
    expect((await book(venue.id, { guests: 3 })).status).toBe(201);
    for (const fields of [{ guests: 1 }, { time: '18:00', duration: 120 }, { time: '08:00' }, { time: '21:00', duration: 90 }, { time: '10:30' }, { date: dayFromNow(-1), time: '12:00' }]) {
      const response = await book(venue.id, fields);
      expect({ fields, status: response.status, code: response.body.error.code }).toEqual({ fields, status: 422, code: 'NO_AVAILABILITY' });
    }
    expect(await heldIn(venue.id)).toEqual([{ time: '19:00', held: 3 }]);
  });

  it('answers a repeated Idempotency-Key with the first booking, and another body with 409', async () => {
    const venue = await createVenue();
    const headers = { 'Idempotency-Key': `bk-${Date.now()}` };
    const first = await book(venue.id, {}, admin.token, headers);
    const again = await book(venue.id, {}, admin.token, headers);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = await book(venue.id, { guests: 3 }, admin.token, headers);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await heldIn(venue.id)).toEqual([{ time: '19:00', held: 2 }]);
  });

  it('never holds more guests than capacity: 60 concurrent bookings race for the last 5 places of a slot', async () => {
    const venue = await createVenue({ capacity: 20 });
    expect((await book(venue.id, { guests: 15, duration: 120 })).status).toBe(201);
    const responses = await Promise.all(Array.from({ length: 60 }, (_, index) => book(venue.id, { guests: 1, time: index % 2 ? '19:00' : '18:00', duration: index % 2 ? 60 : 120 })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 422)).toHaveLength(55);
    const held = await heldIn(venue.id);
    expect(held.find((slot) => slot.time === '19:00')).toEqual({ time: '19:00', held: 20 });
    expect(held.find((slot) => slot.time === '20:00')).toEqual({ time: '20:00', held: 15 });
    expect(held.every((slot) => slot.held <= 20)).toBe(true);
    const { rows } = await platform.sql.query(
      `select s.starts_at, s.held, coalesce(sum(b.guests), 0)::int as booked from booking.venue_slot s
       left join booking.booking b on b.venue_id = s.venue_id and b.status = 'confirmed' and s.starts_at = any(b.slot_starts)
       where s.venue_id = $1 group by s.starts_at, s.held`,
      [venue.id],
    );
    for (const row of rows) expect(row.booked).toBe(row.held);
  });
});

describe('booking lifecycle', () => {
  const eventsOf = async (bookingId: string) =>
    (await platform.sql.query(`select type, payload from booking.outbox_event where payload->>'bookingId' = $1 order by sequence`, [bookingId])).rows;

  it('lists bookings with filters, and shows one with its venue and customer', async () => {
    const email = `${unique('mali')}@example.com`;
    expect((await api('PATCH', `/api/v1/customers/${member.id}`, { name: 'Mali Sook', email, phone: '+66 81 234 5678' })).status).toBe(200);
    const venue = await createVenue();
    const mine = (await book(venue.id, { date: dayFromNow(4) }, member.token)).body.data;
    const others = (await book(venue.id, { customer_id: members[1].id, date: dayFromNow(5) })).body.data;
    const all = await api('GET', `${BOOKINGS}?venue_id=${venue.id}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((booking: { id: string }) => booking.id)).toEqual([others.id, mine.id]);
    expect(all.body.pagination).toMatchObject({ page: 1, total: 2 });
    expect(all.body.data.map((booking: { check_in_code: string; qr_code: string }) => [booking.check_in_code, booking.qr_code])).toEqual([
      [others.check_in_code, others.qr_code],
      [mine.check_in_code, mine.qr_code],
    ]);
    expect(mine.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const filtered = await api('GET', `${BOOKINGS}?venue_id=${venue.id}&customer_id=${member.id}&status=confirmed&date_from=${dayFromNow(4)}&date_to=${dayFromNow(4)}`);
    expect(filtered.body.data.map((booking: { id: string }) => booking.id)).toEqual([mine.id]);
    const own = await api('GET', `${BOOKINGS}?venue_id=${venue.id}`, undefined, member.token);
    expect(own.body.data.map((booking: { id: string }) => booking.id)).toEqual([mine.id]);
    const bad = await api('GET', `${BOOKINGS}?status=lost&date_from=soon&customer_id=x&venue_id=y`);
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['customer_id', 'date_from', 'status', 'venue_id']);
    const backwards = await api('GET', `${BOOKINGS}?venue_id=${venue.id}&date_from=${dayFromNow(5)}&date_to=${dayFromNow(4)}`);
    expect(backwards.status).toBe(400);
    expect(detailFields(backwards.body)).toEqual(['date_to']);

    const detail = await api('GET', `${BOOKINGS}/${mine.id}`, undefined, member.token);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: mine.id, customer_id: member.id, venue: { id: venue.id, name: 'Riverside' } });
    expect(detail.body.data.qr_code).toBe(mine.qr_code);
    // The embedded customer names its fields as the v1 customer does.
    expect(detail.body.data.customer).toEqual({ id: member.id, name: 'Mali Sook', email, phone: '+66 81 234 5678' });
    const customer = (await api('GET', `/api/v1/customers/${member.id}`)).body.data;
    expect(detail.body.data.customer).toEqual({ id: customer.id, name: customer.name, email: customer.email, phone: customer.phone });
    expect((await api('GET', `${BOOKINGS}/${others.id}`)).body.data).toMatchObject({ customer: { id: members[1].id }, venue: { id: venue.id } });
    const notMine = await api('GET', `${BOOKINGS}/${others.id}`, undefined, member.token);
    expect(notMine.status).toBe(403);
    expect(notMine.body).toEqual({ error: 'insufficient_scope', error_description: expect.any(String) });
    expect(JSON.stringify(notMine.body)).not.toContain(others.check_in_code);
    expect((await api('GET', `${BOOKINGS}/nope`)).body.error.code).toBe('BOOKING_NOT_FOUND');
  });

  it('changes a booking, moving its places in one transaction and checking capacity again', async () => {
    const venue = await createVenue({ capacity: 4 });
    const booking = (await book(venue.id, { guests: 2 }, member.token)).body.data;
    expect((await book(venue.id, { time: '20:00', guests: 3 })).status).toBe(201);
    const moved = await api('PATCH', `${BOOKINGS}/${booking.id}`, { time: '18:00', duration: 120, guests: 4, special_requests: 'birthday' }, member.token);
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ time: '18:00', duration: 120, guests: 4, special_requests: 'birthday', status: 'confirmed' });
    expect(await heldIn(venue.id)).toEqual([{ time: '18:00', held: 4 }, { time: '19:00', held: 4 }, { time: '20:00', held: 3 }]);
    const tooMany = await api('PATCH', `${BOOKINGS}/${booking.id}`, { duration: 180 }, member.token);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.code).toBe('NO_AVAILABILITY');
    expect(await heldIn(venue.id)).toEqual([{ time: '18:00', held: 4 }, { time: '19:00', held: 4 }, { time: '20:00', held: 3 }]);
    expect(detailFields((await api('PATCH', `${BOOKINGS}/${booking.id}`, { guests: 0, time: 'noon' })).body)).toEqual(['guests', 'time']);
  });

  it('cancels a booking once, freeing its places and announcing it', async () => {
    const venue = await createVenue({ capacity: 2 });
    const booking = (await book(venue.id, { guests: 2 }, member.token)).body.data;
    const cancelled = await api('POST', `${BOOKINGS}/${booking.id}/cancel`, { reason: 'plans changed' }, member.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancel_reason: 'plans changed' });
    expect(await heldIn(venue.id)).toEqual([]);
    const again = await api('POST', `${BOOKINGS}/${booking.id}/cancel`, {}, member.token);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect((await api('PATCH', `${BOOKINGS}/${booking.id}`, { guests: 1 })).body.error.code).toBe('INVALID_STATE');
    expect((await book(venue.id, { guests: 2 })).status).toBe(201);
    expect((await eventsOf(booking.id)).map((event) => [event.type, event.payload.status, event.payload.reason ?? null])).toEqual([
      ['booking.created', 'confirmed', null],
      ['booking.cancelled', 'cancelled', 'plans changed'],
    ]);
  });

  it('checks in with the code only: a wrong code is 422 INVALID_CHECK_IN_CODE, a second check-in 409', async () => {
    const booking = await bookSoon({}, member.token);
    const wrong = await api('POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: 'WRONG123' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('INVALID_CHECK_IN_CODE');
    expect(detailFields((await api('POST', `${BOOKINGS}/${booking.id}/checkin`, {})).body)).toEqual(['check_in_code']);
    const checkedIn = await api('POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: booking.check_in_code.toLowerCase() });
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.body.data.checked_in_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect((await api('POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: booking.check_in_code })).status).toBe(409);
    const events = await eventsOf(booking.id);
    expect(events.map((event) => event.type)).toEqual(['booking.created', 'booking.checked_in']);
    expect(events[1].payload).toMatchObject({ bookingId: booking.id, memberId: member.id, venueId: booking.venue_id, venueName: 'Riverside', date: booking.date, time: booking.time, guests: 2, status: 'confirmed' });
    expect(events[1].payload.checkedInAt).toBeTruthy();
  });

  it("a booking and its check-in are the customer's interactions (booking, visit), once each whatever the deliveries", async () => {
    const venue = await createVenue({ name: 'Lakeside', ...OPEN_ALL_DAY });
    const customer = await platform.loginMember();
    const booking = await bookSoon({ customer_id: customer.id, guests: 3 }, customer.token, venue.id);
    const when = `${booking.date} ${booking.time}`;
    expect((await api('POST', `${BOOKINGS}/${booking.id}/checkin`, { check_in_code: booking.check_in_code })).status).toBe(200);
    const path = `/api/v1/customers/${customer.id}/interactions`;
    const listed = await waitFor(async () => {
      const response = await api('GET', path, undefined, customer.token);
      return response.body.data?.length === 2 && response.body.data;
    }, 'the booking and the visit were recorded');
    expect(listed).toEqual([
      { id: expect.any(String), type: 'visit', channel: 'booking', description: `Visit to Lakeside (booking of ${when}, 3 guests)`, amount: null, points_earned: 0, created_at: expect.stringMatching(/Z$/) },
      { id: expect.any(String), type: 'booking', channel: 'booking', description: `Booking at Lakeside for ${when}, 3 guests`, amount: null, points_earned: 0, created_at: expect.stringMatching(/Z$/) },
    ]);
    expect((await api('GET', `${path}?type=visit`, undefined, customer.token)).body.data.map((interaction: { type: string }) => interaction.type)).toEqual(['visit']);

    // The check-in's event delivered again, as a redelivery would: still one visit.
    const [row] = (await platform.sql.query(`select id, type, payload, occurred_at from booking.outbox_event where type = 'booking.checked_in' and payload->>'bookingId' = $1`, [booking.id])).rows;
    const boss: PgBoss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
    try {
      await sendAndWait(boss, MEMBER_ACTIVITY_QUEUE, { id: row.id, type: row.type, occurredAt: row.occurred_at.toISOString(), data: row.payload });
    } finally {
      await stopJobQueue(boss);
    }
    expect((await api('GET', path, undefined, customer.token)).body.pagination.total).toBe(2);
  });

  it("answers 403 insufficient_scope to a customer reading, changing, cancelling or checking in another's booking, and 404 BOOKING_NOT_FOUND for unknown ids", async () => {
    const other = await bookSoon({ customer_id: members[1].id });
    for (const [method, path, body] of [
      ['GET', `${BOOKINGS}/${other.id}`, undefined],
      ['PATCH', `${BOOKINGS}/${other.id}`, { guests: 1 }],
      ['POST', `${BOOKINGS}/${other.id}/cancel`, { reason: 'not mine' }],
      ['POST', `${BOOKINGS}/${other.id}/checkin`, { check_in_code: other.check_in_code }],
    ] as const) {
      const response = await api(method, path, body, member.token);
      expect({ method, path, status: response.status, error: response.body.error }).toEqual({ method, path, status: 403, error: 'insufficient_scope' });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
    }
    expect((await api('GET', `${BOOKINGS}/${other.id}`)).body.data).toMatchObject({ status: 'confirmed', guests: 2, checked_in_at: null, cancelled_at: null });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const response = await api('PATCH', `${BOOKINGS}/${id}`, { guests: 1 });
      expect({ id, status: response.status, code: response.body.error?.code }).toEqual({ id, status: 404, code: 'BOOKING_NOT_FOUND' });
    }
  });

  it('lets tenants (read scope) list bookings but not book', async () => {
    const venue = await createVenue();
    expect((await book(venue.id, {}, tenant.token)).status).toBe(403);
    expect((await api('GET', `${BOOKINGS}?venue_id=${venue.id}`, undefined, tenant.token)).status).toBe(200);
  });
});

describe('pages', () => {
  const ids = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((item) => item.id);

  it('pages venues, with and without available; a page or limit out of range is 400', async () => {
    const tag = unique('Lane ');
    const venues: string[] = [];
    for (let index = 0; index < 3; index++) venues.push((await createVenue({ address: `${tag} ${index}` })).id);
    for (const filter of [`location=${tag}`, `location=${tag}&available=true`]) {
      const first = await api('GET', `${VENUES}?${filter}&limit=2`, undefined, member.token);
      expect(first.status).toBe(200);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 3 });
      const second = await api('GET', `${VENUES}?${filter}&limit=2&page=2`, undefined, member.token);
      expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3 });
      expect([...ids(first), ...ids(second)].sort()).toEqual([...venues].sort());
      expect(second.body.data[0].available_slots).toHaveLength(7);
      const beyond = await api('GET', `${VENUES}?${filter}&limit=2&page=3`);
      expect({ data: beyond.body.data, pagination: beyond.body.pagination }).toEqual({ data: [], pagination: { page: 3, limit: 2, total: 3 } });
    }
    expect((await api('GET', `${VENUES}?location=${tag}`)).body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['page=0', 'page']]) {
      const response = await api('GET', `${VENUES}?${query}`);
      expect({ query, status: response.status, fields: detailFields(response.body) }).toEqual({ query, status: 400, fields: [field] });
    }
  });

  it('pages bookings, latest slot first; a page or limit out of range is 400', async () => {
    const venue = await createVenue();
    const made: string[] = [];
    for (const time of ['18:00', '19:00', '20:00']) made.push((await book(venue.id, { time })).body.data.id);
    const first = await api('GET', `${BOOKINGS}?venue_id=${venue.id}&limit=2`);
    expect(first.body).toMatchObject({ pagination: { page: 1, limit: 2, total: 3 } });
    expect(ids(first)).toEqual([made[2], made[1]]);
    const second = await api('GET', `${BOOKINGS}?venue_id=${venue.id}&limit=2&page=2`);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 3 });
    expect(ids(second)).toEqual([made[0]]);
    expect((await api('GET', `${BOOKINGS}?venue_id=${venue.id}`)).body.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    for (const [query, field] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['page=0', 'page']]) {
      const response = await api('GET', `${BOOKINGS}?venue_id=${venue.id}&${query}`, undefined, member.token);
      expect({ query, status: response.status, fields: detailFields(response.body) }).toEqual({ query, status: 400, fields: [field] });
    }
  });
});
