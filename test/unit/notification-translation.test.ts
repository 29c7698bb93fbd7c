import { acceptedTranslation, MissingTranslation, missingTranslations } from '../../subgraphs/notification/services/notification-translation';
import { renderTemplate } from '../../subgraphs/notification/services/notification-templates';
import { parseNotificationSettings } from '../../subgraphs/notification/settings';

const html = (source: string): MissingTranslation => ({ field: 'content_th', name: 'content', target: 'th', source, format: 'html' });
const title = (source: string): MissingTranslation => ({ field: 'title_cn', name: 'title', target: 'cn', source, format: 'text' });

describe('missingTranslations', () => {
  it('names each empty Thai and Chinese field beside a non-empty English one, as html only for html content', () => {
    expect(missingTranslations({ title_en: 'T', title_th: 'ท', content_en: '<p>C</p>', content_cn: '', format: 'html' })).toEqual([
      { field: 'title_cn', name: 'title', target: 'cn', source: 'T', format: 'text' },
      { field: 'content_th', name: 'content', target: 'th', source: '<p>C</p>', format: 'html' },
      { field: 'content_cn', name: 'content', target: 'cn', source: '<p>C</p>', format: 'html' },
    ]);
    expect(missingTranslations({ title_en: '', title_th: null, content_en: null })).toEqual([]);
  });
});

describe('acceptedTranslation', () => {
  it('keeps a translation with the same tags, however it quotes and spaces them', () => {
    expect(acceptedTranslation(html('<p class="a">Hi <a href=\'https://x.example\'>there</a><br/></p>'), '<P class=\'a\'>สวัสดี <a href="https://x.example">ที่นั่น</a><br /></P>')).toBe(
      '<P class=\'a\'>สวัสดี <a href="https://x.example">ที่นั่น</a><br /></P>',
    );
  });

  it('refuses HTML whose tags or attributes differ, or with a stray angle bracket', () => {
    expect(acceptedTranslation(html('<p>Hi</p>'), '<p>Hi<script>alert(1)</script></p>')).toBeNull();
    expect(acceptedTranslation(html('<p>Hi</p>'), '<p onclick="alert(1)">Hi</p>')).toBeNull();
    expect(acceptedTranslation(html('<a href="https://x.example">Hi</a>'), '<a href="javascript:alert(1)">Hi</a>')).toBeNull();
    expect(acceptedTranslation(html('<p>Hi</p>'), '<p>Hi</p><')).toBeNull();
    expect(acceptedTranslation(html('<p>Hi</p>'), '<p>Hi')).toBeNull();
  });

  it('bounds titles to 255 characters on one line and contents to 20,000, strips control characters, refuses blanks', () => {
    expect(acceptedTranslation(title('T'), 'x'.repeat(255))).toHaveLength(255);
    expect(acceptedTranslation(title('T'), 'x'.repeat(256))).toBeNull();
    expect(acceptedTranslation(title('T'), 'two\nlines')).toBeNull();
    expect(acceptedTranslation({ ...title('T'), name: 'content', field: 'content_cn' }, 'x'.repeat(20_001))).toBeNull();
    expect(acceptedTranslation(title('T'), ' 你好\u0000\u001b ')).toBe('你好');
    expect(acceptedTranslation(title('T'), '   ')).toBeNull();
  });
});

describe('renderTemplate', () => {
  it('fills localized fields, falls back to English, and shows sections only for given fields', () => {
    const values = { newTier_en: 'Gold', newTier_th: 'โกลด์', points: 1234.5, expiryDate: '2026-12-31T10:00:00Z', canRetry: false, tags: ['a', 'b'] };
    expect(renderTemplate('{{newTier}} {{points}} {{expiryDate}} {{tags}}', values, 'th')).toBe('โกลด์ 1,234.5 2026-12-31 a, b');
    expect(renderTemplate('{{newTier}}', values, 'cn')).toBe('Gold');
    expect(renderTemplate('{{#canRetry}}retry{{/canRetry}}{{^missing}} none{{/missing}}{{#tags}}{{#points}} both{{/points}}{{/tags}}', values, 'en')).toBe(' none both');
  });
});

describe('parseNotificationSettings', () => {
  it('reads the provider and its retry policy, and names each bad variable', () => {
    expect(parseNotificationSettings({ TRANSLATE_URL: 'http://translate.local/', TRANSLATE_API_KEY: 'k' }, [])).toEqual({
      translateUrl: 'http://translate.local',
      translateApiKey: 'k',
      translateRetryLimit: 8,
      translateRetryDelaySeconds: 30,
      notifyRetrySchedule: [30, 120, 600, 1800],
      notifyChannelTimeoutMs: 10_000,
      notifyBatchSize: 500,
      chatappNotifyTemplateId: undefined,
      chatappNotifyWebviewPage: undefined,
      smsUrl: undefined,
      smsApiKey: undefined,
    });
    expect(parseNotificationSettings({ NOTIFY_RETRY_SCHEDULE: '5, 60', NOTIFY_BATCH_SIZE: '9000', SMS_URL: 'https://sms.local/', SMS_API_KEY: 's' }, [])).toMatchObject({
      notifyRetrySchedule: [5, 60],
      notifyBatchSize: 5000,
      smsUrl: 'https://sms.local',
      smsApiKey: 's',
    });
    const problems: string[] = [];
    parseNotificationSettings({ TRANSLATE_URL: 'ftp://x', TRANSLATE_RETRY_LIMIT: '0', TRANSLATE_RETRY_DELAY_SECONDS: '99999' }, problems);
    parseNotificationSettings({ TRANSLATE_API_KEY: 'lonely' }, problems);
    parseNotificationSettings({ NOTIFY_RETRY_SCHEDULE: 'soon', SMS_API_KEY: 'lonely' }, problems);
    parseNotificationSettings({ NOTIFY_CHANNEL_TIMEOUT_MS: '600000', CHATAPP_NOTIFY_WEBVIEW_PAGE: 'https://shop.example.com/view' }, problems);
    parseNotificationSettings({ CHATAPP_NOTIFY_WEBVIEW_PAGE: 'pages/webview/index?x=1' }, problems);
    expect(problems).toEqual([
      expect.stringContaining('TRANSLATE_URL'),
      expect.stringContaining('TRANSLATE_RETRY_LIMIT'),
      expect.stringContaining('TRANSLATE_RETRY_DELAY_SECONDS'),
      expect.stringContaining('TRANSLATE_API_KEY is set without TRANSLATE_URL'),
      expect.stringContaining('SMS_API_KEY is set without SMS_URL'),
      expect.stringContaining('NOTIFY_RETRY_SCHEDULE'),
      expect.stringContaining('NOTIFY_CHANNEL_TIMEOUT_MS must be at most 60000'),
      expect.stringContaining('CHATAPP_NOTIFY_WEBVIEW_PAGE must be a mini-program page path'),
      expect.stringContaining('CHATAPP_NOTIFY_WEBVIEW_PAGE must be a mini-program page path'),
    ]);
    expect(parseNotificationSettings({ CHATAPP_NOTIFY_WEBVIEW_PAGE: ' pages/web-view/index ' }, []).chatappNotifyWebviewPage).toBe('pages/web-view/index');
  });
});
