/*
 * What a CI workflow, script, Makefile or `.envrc` hands Terraform: `TF_VAR_<name>` in its
 * environment, `-var name=value` and `-var-file=path` on a command line, and the folders it runs
 * Terraform in. Read line by line as text: these files are YAML, shell, Make or PowerShell, and
 * each writes the same settings the same few ways.
 */

/** One variable set for Terraform, where it is set. */
interface TfSetting {
  name: string;
  value: string;
  line: number;
}

/** What one side of such a file sets. */
export interface TfSettings {
  /** By variable name; the last setting of a name wins, as it does for Terraform. */
  vars: Map<string, TfSetting>;
  /** `-var-file` paths as written, with their lines. */
  varFiles: { path: string; line: number }[];
  /** Folders Terraform may run in, as written (`-chdir=`, `working-directory:`, `cd`). */
  dirs: string[];
}

/** `TF_VAR_name=value`, `TF_VAR_name: value`, Make's `TF_VAR_name ?= value`, `$env:TF_VAR_name = "value"`. */
const TF_VAR = /\bTF_VAR_([A-Za-z_][\w-]*)["']?[ \t]*(?::=|\?=|\+=|=|:(?=[ \t]|$))[ \t]*(.*)$/;
/** `-var name=value`, `-var="name=value"`, `--var 'name=value'`, `-var=name=value` (not `-var-file`). */
const VAR_FLAG = /(?:^|[\s(])--?var(?:=|[ \t]+)(?:"([^"]*)"|'([^']*)'|([^\s"';|&)]+))/g;
const VAR_FILE_FLAG = /(?:^|[\s(])--?var-file(?:=|[ \t]+)["']?([^\s"';|&)]+)/g;
/** Folders a job runs Terraform in. */
const DIR_SETTINGS = [
  /(?:^|[\s(])--?chdir(?:=|[ \t]+)["']?([^\s"';|&)]+)/g,
  /\b(?:working-directory|working_directory|workingDirectory|root_dir|TF_ROOT|TF_DIR|TF_WORKING_DIR|TERRAFORM_DIR|TG_WORKING_DIR)["']?[ \t]*[:=][ \t]*["']?([^\s"'#]+)/g,
  // `cd "$(dirname "$0")/../infra"` and `cd "${DIR}/../infra"` go from the script's folder.
  /(?:^|[;&|(]|\bthen|\bdo)[ \t]*(?:cd|pushd)[ \t]+["']?(?:(?:\$\(dirname[ \t]+"?\$0"?\)|\$\{?\w+\}?|\$PSScriptRoot)\/)?([^\s"';|&)$]+)/g,
  /--?(?:terragrunt-)?working-dir(?:=|[ \t]+)["']?([^\s"';|&)]+)/g,
];
/** Other tools take `-var` too; their variables are not Terraform's. */
const OTHER_TOOL = /\b(?:packer|ansible(?:-playbook)?|vagrant)\b/;
const COMMENT = /^[ \t]*(?:#|\/\/|REM\b)/;

/** What a file sets for Terraform at one side (null text: nothing). */
export function tfSettings(text: string | null): TfSettings {
  const out: TfSettings = { vars: new Map(), varFiles: [], dirs: [] };
  if (text === null) return out;
  text.split('\n').forEach((raw, i) => {
    if (COMMENT.test(raw)) return;
    const line = i + 1;
    const env = TF_VAR.exec(raw);
    if (env?.[1] !== undefined) out.vars.set(env[1], { name: env[1], value: cleanValue(env[2] ?? ''), line });
    if (!OTHER_TOOL.test(raw)) {
      for (const m of raw.matchAll(VAR_FLAG)) {
        const pair = m[1] ?? m[2] ?? m[3] ?? '';
        const eq = pair.indexOf('=');
        const name = eq > 0 ? pair.slice(0, eq).trim() : '';
        if (/^[A-Za-z_][\w-]*$/.test(name)) out.vars.set(name, { name, value: pair.slice(eq + 1), line });
      }
      for (const m of raw.matchAll(VAR_FILE_FLAG)) if (m[1] !== undefined) out.varFiles.push({ path: m[1], line });
    }
    for (const re of DIR_SETTINGS) for (const m of raw.matchAll(re)) if (m[1] !== undefined) out.dirs.push(m[1]);
  });
  return out;
}

/** Whether the text may set anything for Terraform: most files changed with one do not. */
export function mentionsTfSettings(text: string | null): boolean {
  return text !== null && (/\bTF_VAR_\w/.test(text) || /--?var(?:-file)?[= \t]/.test(text));
}

/** A value as the shell or YAML hands it on: quotes, a trailing comment and `;` taken off. */
function cleanValue(raw: string): string {
  const value = raw.replace(/[ \t]+#.*$/, '').trim();
  const quoted = /^"([^"]*)"[ \t;]*$|^'([^']*)'[ \t;]*$/.exec(value);
  return quoted ? (quoted[1] ?? quoted[2] ?? '') : value.replace(/;$/, '');
}
