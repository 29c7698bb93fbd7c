import { PageWindow, readPage } from '../../core/pagination';

/** The list 0..size-1 read as a database would: `offset` and `limit` in its order or the reverse. */
function listOf(size: number) {
  const rows = Array.from({ length: size }, (_, index) => index);
  const windows: PageWindow[] = [];
  const read = async (window: PageWindow) => {
    windows.push(window);
    return (window.reverse ? [...rows].reverse() : rows).slice(window.offset, window.offset + window.limit);
  };
  return { rows, windows, read };
}

describe('readPage', () => {
  it('returns the rows OFFSET would, on every page of lists of any size, and a page past the end empty', async () => {
    for (const size of [0, 1, 2, 9, 10, 11, 25, 100]) {
      for (const limit of [1, 3, 10, 100]) {
        const { rows, read } = listOf(size);
        for (let page = 1; page <= Math.ceil(size / limit) + 1; page++) {
          const result = await readPage(size, { page, limit }, read);
          expect(result.data).toEqual(rows.slice((page - 1) * limit, page * limit));
          expect(result.meta).toEqual({ page, limit, total: size, totalPages: Math.ceil(size / limit) });
        }
      }
    }
  });

  it('reads the first half from the start and the second half from the end, never further than the middle', async () => {
    const { windows, read } = listOf(1_000_000);
    await readPage(1_000_000, { page: 1, limit: 10 }, read);
    await readPage(1_000_000, { page: 100_000, limit: 10 }, read);
    await readPage(1_000_000, { page: 99_999, limit: 10 }, read);
    await readPage(1_000_000, { page: 50_000, limit: 10 }, read);
    expect(windows).toEqual([
      { offset: 0, limit: 10, reverse: false },
      { offset: 0, limit: 10, reverse: true },
      { offset: 10, limit: 10, reverse: true },
      { offset: 499_990, limit: 10, reverse: false },
    ]);
  });

  it('reads nothing for a page past the end', async () => {
    const { windows, read } = listOf(5);
    expect((await readPage(5, { page: 3, limit: 5 }, read)).data).toEqual([]);
    expect(windows).toEqual([]);
  });
});
