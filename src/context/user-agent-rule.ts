/** Shortest User-Agent accepted from a request without an API key. */
export const MIN_USER_AGENT_LENGTH = 10;

/**
 * Default agents of command-line tools, HTTP libraries and scrapers. Matched at the start of the
 * header (or as a product token), case-insensitively, so browsers that mention them are not caught.
 */
const TOOL_AGENTS = [
  'curl',
  'wget',
  'httpie',
  'python-requests',
  'python-urllib',
  'python-urllib3',
  'python-httpx',
  'aiohttp',
  'scrapy',
  'go-http-client',
  'axios',
  'node-fetch',
  'undici',
  'node',
  'got',
  'superagent',
  'okhttp',
  'java',
  'java-http-client',
  'apache-httpclient',
  'jakarta commons-httpclient',
  'libwww-perl',
  'lwp::simple',
  'php',
  'guzzlehttp',
  'ruby',
  'faraday',
  'rest-client',
  'postmanruntime',
  'insomnia',
  'dart',
  'reqwest',
  'libcurl',
  'libcurl-agent',
  'winhttp',
  'winhttp.winhttprequest.5',
  'powershell',
  'windowspowershell',
  'headlesschrome',
  'phantomjs',
  'mechanize',
  'httpclient',
];
const TOOL_AGENT_PATTERN = new RegExp(
  `(^|[\\s;(])(${TOOL_AGENTS.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})([/\\s;)]|$)`,
  'i',
);

/** Why a User-Agent is refused, or null when it is acceptable. */
export function userAgentProblem(userAgent: string | undefined): string | null {
  const agent = (userAgent ?? '').trim();
  if (agent === '') return 'A User-Agent header is required';
  if (agent.length < MIN_USER_AGENT_LENGTH) {
    return `User-Agent must be at least ${MIN_USER_AGENT_LENGTH} characters`;
  }
  if (TOOL_AGENT_PATTERN.test(agent)) return 'Requests from automated HTTP clients need an API key (X-API-Key)';
  return null;
}
