import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { COMMANDS, USAGE } from '../../src/cli/main.js';

const run = runCli;

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The flags a command parses, read from its `parseFlags(argv, { … })` call. */
function parsedFlags(name: string): string[] {
  const source = readFileSync(new URL(`../../src/cli/commands/${name}.ts`, import.meta.url), 'utf8');
  const options = /parseFlags\(argv, \{([\s\S]*?)\}\);/.exec(source)?.[1] ?? '';
  return [...options.matchAll(/^\s*'?([a-z][\w-]*)'?: \{ type:/gm)].map((m) => `--${m[1]}`);
}

const names = Object.keys(COMMANDS);

describe('gpu-justify <command> --help', () => {
  it('covers every command', () => {
    expect(names.sort()).toEqual(['action', 'demo', 'detect', 'init', 'review', 'snapshot', 'stagger']);
  });

  it.each(names)('%s --help prints its usage on stdout and exits 0', async (name) => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await run(name, flag);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toBe(COMMANDS[name]?.help);
      expect(stdout.startsWith(`Usage: gpu-justify ${name}`)).toBe(true);
      expect(stdout).toMatch(/Exit codes|Takes no options/);
    }
  });

  it.each(names)('%s --help wins over missing or bad flags', async (name) => {
    const { code, stdout } = await run(name, '--no-such-flag', '--help');
    expect(code).toBe(0);
    expect(stdout).toBe(COMMANDS[name]?.help);
    // Without --help the same line is a usage error.
    expect((await run(name, '--no-such-flag')).code).toBe(2);
  });

  it.each(names)('%s --help documents exactly the flags the command parses', (name) => {
    const help = COMMANDS[name]?.help ?? '';
    // The usage lines and the option list (prose may mention other commands' flags).
    const optionText = [help.slice(0, help.indexOf('\n\n')), ...help.split('\n').filter((l) => /^ {2}--/.test(l))].join('\n');
    const documented = new Set([...optionText.matchAll(/--[a-z][\w-]*/g)].map((m) => m[0]));
    const parsed = parsedFlags(name);
    for (const flag of parsed) expect(documented, `${name} ${flag}`).toContain(flag);
    for (const flag of documented) expect(parsed, `${name} ${flag}`).toContain(flag);
  });

  it.each(names)("%s's usage lines match the overview's", (name) => {
    const help = COMMANDS[name]?.help ?? '';
    const synopsis = help.slice('Usage: '.length, help.indexOf('\n\n'));
    expect(squash(USAGE)).toContain(squash(synopsis));
  });

  it('gpu-justify --help lists every command and points at the per-command help', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    for (const name of names) expect(stdout).toContain(`gpu-justify ${name}`);
    expect(stdout).toContain('gpu-justify <command> --help');
  });

  it('gpu-justify alone says what it is and lists the commands (exit 2: no command given)', async () => {
    const { code, stdout } = await run();
    expect(code).toBe(2);
    expect(stdout.split('\n')[0]).toMatch(/^gpu-justify reviews pull requests that grow GPU capacity/);
    for (const name of names) expect(stdout).toContain(`gpu-justify ${name}`);
  });

  it('gpu-justify --version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const { code, stdout, stderr } = await run(flag);
      expect({ code, stdout: stdout.trim(), stderr }).toEqual({ code: 0, stdout: version, stderr: '' });
    }
  });
});
