import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/** What the operating system tells about a live process. */
export interface ProcessInfo {
  pid: number;
  /** Its parent: the process that started it, or the reaper it was handed to when that one ended. */
  ppid: number;
  /** Real path of its executable, when readable (Linux). */
  exe?: string;
  /** Its arguments (from /proc; empty where only `ps` is available). */
  argv: string[];
  /** Its command line as one string (`ps`'s view where there is no /proc). */
  command: string;
  /** Its working directory, when readable (Linux): a postmaster's is its data directory. */
  cwd?: string;
}

/** `pid`'s parent and state from /proc/<pid>/stat; the command name may hold spaces and parentheses, so it is skipped from its last `)`. */
function procStat(pid: number): { state: string; ppid: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

function readlinkOrUndefined(link: string): string | undefined {
  try {
    return readlinkSync(link);
  } catch {
    return undefined; // another user's process, when we are not root
  }
}

/** A process from /proc; null when it does not exist or has ended (a zombie waiting for its parent counts as ended). */
function fromProc(pid: number): ProcessInfo | null {
  let stat;
  try {
    stat = procStat(pid);
  } catch {
    return null;
  }
  if (stat.state === 'Z' || stat.state === 'X') return null;
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  if (argv.at(-1) === '') argv.pop();
  return {
    pid,
    ppid: stat.ppid,
    exe: readlinkOrUndefined(`/proc/${pid}/exe`),
    argv,
    command: argv.join(' '),
    cwd: readlinkOrUndefined(`/proc/${pid}/cwd`),
  };
}

/** A process from `ps` (macOS and other systems without /proc). */
function fromPs(pid: number): ProcessInfo | null {
  let line: string;
  try {
    line = execFileSync('ps', ['-o', 'ppid=,stat=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return null; // ps exits 1 when there is no such process
  }
  const match = /^(\d+)\s+(\S+)\s+(.*)$/.exec(line);
  if (!match || match[2].startsWith('Z')) return null;
  return { pid, ppid: Number(match[1]), argv: [], command: match[3] };
}

/** The live process `pid`, or null when there is none. */
export function processInfo(pid: number): ProcessInfo | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') return fromProc(pid);
  return fromPs(pid);
}
