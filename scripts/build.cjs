// @ts-check
/**
 * Compiles the TypeScript sources to dist/ with swc (`npm run build`).
 *
 * With `--if-changed` (what `npm start` and the other run scripts use) the compile is skipped when
 * dist/ was built from exactly the current sources: a fingerprint of every input file's content,
 * the swc configuration and the swc version is kept in dist/.build-fingerprint, and every expected
 * output must exist. Contents, not modification times, decide, so a `git pull`, a checkout of an
 * older commit or a copied tree can never leave a stale build; a deleted dist/ builds again.
 *
 * Plain CommonJS on purpose: it runs before anything is compiled, and loads faster than an ES module.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');

/** What swc compiles, relative to the project root; dist/ mirrors these paths. */
const INPUTS = ['src', 'rest-shim', 'jobs', 'scripts', 'mikro-orm.config.ts'];
const OUT_DIR = 'dist';
const SWC_ARGS = [...INPUTS, '-d', OUT_DIR, '--config-file', '.swcrc', '-q'];
const FINGERPRINT_FILE = path.join(OUT_DIR, '.build-fingerprint');

/** Every file under the inputs, as sorted paths relative to `root`. */
function inputFiles(root) {
  const files = [];
  const walk = (relative) => {
    if (statSync(path.join(root, relative)).isDirectory()) {
      for (const entry of readdirSync(path.join(root, relative))) walk(path.join(relative, entry));
    } else {
      files.push(relative);
    }
  };
  for (const input of INPUTS) walk(input);
  return files.sort();
}

/** The compiled file swc writes for a source file (only .ts sources produce one). */
function outputOf(file) {
  return file.endsWith('.ts') && !file.endsWith('.d.ts') ? path.join(OUT_DIR, file.replace(/\.ts$/, '.js')) : undefined;
}

/** Hash of everything the compiled output depends on: each input's path and content, .swcrc, the swc version and arguments. */
function fingerprintOf(root, files) {
  const hash = createHash('sha256');
  const swcCore = createRequire(path.join(root, 'package.json'))('@swc/core/package.json');
  hash.update(`swc ${swcCore.version} ${SWC_ARGS.join(' ')}\0`);
  hash.update(readFileSync(path.join(root, '.swcrc')));
  for (const file of files) {
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

/** True when dist/ holds the build of exactly these sources. */
function isUpToDate(root, files, fingerprint) {
  const recorded = path.join(root, FINGERPRINT_FILE);
  if (!existsSync(recorded) || readFileSync(recorded, 'utf8') !== fingerprint) return false;
  return files.every((file) => {
    const output = outputOf(file);
    return output === undefined || existsSync(path.join(root, output));
  });
}

/** Runs swc over the inputs; exits with its status when it fails. */
function compile(root) {
  const swcCli = createRequire(path.join(root, 'package.json')).resolve('@swc/cli/bin/swc.js');
  const result = spawnSync(process.execPath, [swcCli, ...SWC_ARGS], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const root = process.cwd();
const files = inputFiles(root);
// Taken before compiling: a file edited while swc runs then fails the next comparison and is rebuilt.
const fingerprint = fingerprintOf(root, files);
if (!(process.argv.includes('--if-changed') && isUpToDate(root, files, fingerprint))) {
  // No fingerprint while compiling: an interrupted build is never taken for a complete one.
  rmSync(path.join(root, FINGERPRINT_FILE), { force: true });
  compile(root);
  mkdirSync(path.join(root, OUT_DIR), { recursive: true });
  writeFileSync(path.join(root, FINGERPRINT_FILE), fingerprint);
}
