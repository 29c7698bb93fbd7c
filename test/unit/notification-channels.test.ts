import { chatappPage } from '../../subgraphs/notification/services/channels/chatapp-channel';
import { untilAborted } from '../../subgraphs/notification/services/channels/channel';

describe('chatappPage (the page a subscribe message opens)', () => {
  const link = 'https://loyalty.example.com/api/v1/notifications/track/0b5c0a36-5d2e-4c69-9d39-1b1c1f1e8a11?sig=abc_DEF-123';

  it('is the web-view page with the tracked link, encoded, as its url parameter', () => {
    expect(chatappPage('pages/webview/index', link)).toBe(`pages/webview/index?url=${encodeURIComponent(link)}`);
    expect(new URLSearchParams(chatappPage('pages/webview/index', link)!.split('?')[1]).get('url')).toBe(link);
  });

  it('is none without a web-view page (never the link itself) or without a link', () => {
    expect(chatappPage(undefined, link)).toBeUndefined();
    expect(chatappPage('pages/webview/index', null)).toBeUndefined();
  });
});

describe('untilAborted', () => {
  it('settles as the work does while the signal holds', async () => {
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error('no')), new AbortController().signal)).rejects.toThrow('no');
  });

  it("rejects with the signal's reason once it aborts, though the work never ends", async () => {
    const controller = new AbortController();
    const pending = untilAborted(new Promise<never>(() => undefined), controller.signal);
    controller.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toThrow('deadline');
  });
});
