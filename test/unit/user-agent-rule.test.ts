import { describe, expect, it } from 'vitest';
import { userAgentProblem } from '../../src/context/user-agent-rule';

describe('userAgentProblem', () => {
  it.each([
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    'AcmeDistributorApp/3.2 (Android 14)',
  ])('accepts %s', (agent) => {
    expect(userAgentProblem(agent)).toBeNull();
  });

  it.each([
    [undefined, /required/],
    ['', /required/],
    ['Mozilla/5', /at least 10/],
    ['curl/8.5.0', /API key/],
    ['Wget/1.21.4', /API key/],
    ['python-requests/2.32.3', /API key/],
    ['Python-urllib/3.11', /API key/],
    ['Go-http-client/1.1', /API key/],
    ['axios/1.7.9', /API key/],
    ['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', /API key/],
    ['undici/6.0.0', /API key/],
    ['okhttp/4.12.0', /API key/],
    ['Java/17.0.2', /API key/],
    ['libwww-perl/6.72', /API key/],
    ['PostmanRuntime/7.42.0', /API key/],
    ['Apache-HttpClient/4.5.14 (Java/17)', /API key/],
    ['Scrapy/2.11 (+https://scrapy.org)', /API key/],
    ['Java-http-client/21.0.2', /API key/],
    ['python-urllib3/2.2.1', /API key/],
    ['Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.22621.2506', /API key/],
    ['Mozilla/4.0 (compatible; Win32; WinHttp.WinHttpRequest.5)', /API key/],
    ['libcurl-agent/1.0', /API key/],
  ])('refuses %s', (agent, reason) => {
    expect(userAgentProblem(agent)).toMatch(reason);
  });
});
