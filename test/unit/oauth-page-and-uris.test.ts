import { escapeHtml } from '../../core/browser-page';
import { redirectUriProblem } from '../../subgraphs/auth/services/oauth-client.service';
import { clientCredentialsOf, oauthParams, parseScope } from '../../subgraphs/auth/services/oauth-params';

describe('OAuth redirect URIs', () => {
  it.each(['https://app.example.com/cb', 'https://app.example.com/cb?x=1', 'http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://127.9.9.9:80/cb', 'http://[::1]:8080/cb'])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['http://app.example.com/cb', 'https'],
    ['http://localhost.example.com/cb', 'https'],
    ['https://app.example.com/cb#x', 'fragment'],
    ['https://user:pw@app.example.com/cb', 'user information'],
    ['javascript:alert(1)', 'https'],
    ['/relative', 'absolute'],
    ['', 'absolute'],
  ])('refuses %s (%s)', (uri, problem) => {
    expect(redirectUriProblem(uri)).toContain(problem);
  });

  it('refuses what is not a string', () => {
    expect(redirectUriProblem(42)).toBeDefined();
  });
});

describe('OAuth request parameters', () => {
  it('keeps the first of a repeated name and lists it; empty values are missing', () => {
    const params = oauthParams([{ name: 'scope', value: 'read' }, { name: 'scope', value: 'write' }, { name: 'state', value: '' }]);
    expect(params.get('scope')).toBe('read');
    expect(params.get('state')).toBeUndefined();
    expect(params.repeated).toEqual(['scope']);
  });

  it('reads HTTP Basic form-decoded (RFC 6749 §2.3.1), an empty password as no secret, and refuses a malformed header', () => {
    const none = oauthParams([]);
    const header = `Basic ${Buffer.from('lpc%5Fa%2Db:s%2B1+2').toString('base64')}`;
    expect(clientCredentialsOf(none, header)).toEqual({ clientId: 'lpc_a-b', clientSecret: 's+1 2', basic: true });
    expect(clientCredentialsOf(none, `Basic ${Buffer.from('lpc_x:').toString('base64')}`)).toEqual({ clientId: 'lpc_x', clientSecret: undefined, basic: true });
    expect(clientCredentialsOf(none, 'Basic !!!').malformed).toBe(true);
    expect(clientCredentialsOf(none, `Basic ${Buffer.from('no-colon').toString('base64')}`).malformed).toBe(true);
    expect(clientCredentialsOf(oauthParams([{ name: 'client_id', value: 'c' }, { name: 'client_secret', value: 's' }]), undefined)).toEqual({ clientId: 'c', clientSecret: 's', basic: false });
  });

  it('parses scopes, refusing characters outside RFC 6749 §3.3', () => {
    expect(parseScope(' read  write read ')).toEqual(['read', 'write']);
    expect(parseScope('read "x"')).toBeUndefined();
  });
});

describe('escapeHtml', () => {
  it('escapes every character that could end a text or an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`=</a>`)).toBe('&#60;a href&#61;&#34;x&#34; onclick&#61;&#39;y&#39;&#62;&#38;&#96;&#61;&#60;/a&#62;');
  });
});
