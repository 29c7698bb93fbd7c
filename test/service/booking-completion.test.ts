import { randomUUID } from 'node:crypto';
import { bookingModule } from '../../subgraphs/booking/module';
import { BookingService } from '../../subgraphs/booking/services/booking.service';
import { parseBookingSettings } from '../../subgraphs/booking/settings';
import { useModuleDatabase } from '../support/module-database';

const db = useModuleDatabase(bookingModule);

/** A booking at a fresh venue ending at `endsAt` (wall clock), `status`, checked in or not. */
async function booking(endsAt: string, status = 'confirmed', checkedIn = false): Promise<string> {
  const venueId = randomUUID();
  await db.query(
    `insert into booking.venue (id, name, type, capacity, opening_time, closing_time, slot_minutes, created_at, updated_at) values (?, 'V', 'restaurant', 4, '00:00', '00:00', 60, now(), now())`,
    [venueId],
  );
  const id = randomUUID();
  await db.query(
    `insert into booking.booking (id, member_id, venue_id, type, date, time, duration, guests, status, check_in_code, starts_at, ends_at, slot_starts, checked_in_at, created_at, updated_at)
     values (?, ?, ?, 'table', '2026-01-01', '10:00', 60, 1, ?, 'ABCDEFGH', ?::timestamp - interval '1 hour', ?::timestamp, '{}', ?, now(), now())`,
    [id, randomUUID(), venueId, status, endsAt, endsAt, checkedIn ? new Date() : null],
  );
  return id;
}

const statusOf = async (id: string) => (await db.query(`select status, completed_at is not null as completed, checked_in_at is null as no_show from booking.booking where id = ?`, [id]))[0];

describe('booking completion job', () => {
  it('completes confirmed bookings whose time has ended, visits and no-shows alike, and nothing else', async () => {
    const visited = await booking('2026-01-01 11:00', 'confirmed', true);
    const noShow = await booking('2026-01-01 11:00');
    const cancelled = await booking('2026-01-01 11:00', 'cancelled');
    const upcoming = await booking('2999-01-01 11:00');
    expect(await new BookingService(db.em(), undefined, parseBookingSettings({}, [])).completeEnded()).toBe(2);
    expect(await statusOf(visited)).toEqual({ status: 'completed', completed: true, no_show: false });
    expect(await statusOf(noShow)).toEqual({ status: 'completed', completed: true, no_show: true });
    expect((await statusOf(cancelled)).status).toBe('cancelled');
    expect((await statusOf(upcoming)).status).toBe('confirmed');
    expect(await new BookingService(db.em(), undefined, parseBookingSettings({}, [])).completeEnded()).toBe(0);
  });
});
