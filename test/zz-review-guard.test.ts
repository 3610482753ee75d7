import { describe, it, expect } from 'vitest';
import { parseWebhookUrl, vetTarget, isPublicAddress } from '../src/domains/webhooks/target-guard';

const noDns = async (h: string) => { throw new Error('dns ' + h); };
const urls = [
  'https://0x7f.1/', 'https://2130706433/', 'https://0177.0.0.1/', 'https://127.1/', 'https://127.0.0.1./',
  'https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]/', 'https://[::127.0.0.1]/', 'https://[64:ff9b::7f00:1]/',
  'https://[2002:7f00:1::]/', 'https://[2001::1]/', 'https://[fe80::1]/', 'https://[::]/', 'https://0/',
  'https://[0:0:0:0:0:ffff:169.254.169.254]/', 'https://169.254.169.254/', 'https://100.64.0.1/', 'https://0x08.0x08.0x08.0x08/',
  'https://localhost./', 'https://LOCALHOST/', 'https://%31%32%37.0.0.1/', 'https://127.0.0.1%2e/', 'https://[::1]:443/',
  'https://1.1.1.1/', 'https://[2606:4700::1111]/', 'https://[2001:db8::1]/', 'https://255.255.255.255/',
];
describe('guard', () => {
  it('forms', async () => {
    const out: string[] = [];
    for (const u of urls) {
      let line = u + ' -> ';
      try {
        const p = parseWebhookUrl('url', u);
        line += p.hostname + ' : ';
        const r = await vetTarget(p, noDns as never, []);
        line += 'ALLOWED ' + JSON.stringify(r);
      } catch (e) { line += 'refused: ' + (e as Error).message; }
      out.push(line);
    }
    console.log(out.join('\n'));
    expect(isPublicAddress('8.8.8.8')).toBe(true);
  });
});
