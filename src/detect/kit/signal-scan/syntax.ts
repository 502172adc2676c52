/**
 * What kind of text a path holds, as far as the signal scan needs to know: how to tell its
 * comments and keys, whether it can be applied at all. Decided by the path alone.
 *
 * - `yaml`: indentation-structured (YAML, Helm and other templates of YAML).
 * - `brace`: structured by braces and brackets (HCL, JSON, Jsonnet, CUE, Bicep, general-purpose code).
 * - `plain`: anything else that is text (TOML, INI, `.env`, files without an extension).
 * - `docs`: documentation, never applied by any tool (Markdown, reStructuredText, plain text).
 * - `dependencies`: package manifests and lock files: they pin software, never machines.
 * - `binary`: images, archives, model weights and the like: not text.
 */
export type TextKind = 'yaml' | 'brace' | 'plain' | 'docs' | 'dependencies' | 'binary';

export interface Syntax {
  kind: TextKind;
  /** `#` starts a comment. */
  hash: boolean;
  /** `//` and `/* … *\/` are comments. */
  slash: boolean;
  /**
   * Keys that name GPUs (`gpu_count =`, `acceleratorType:`, Pulumi's `gpu: true`) are signals; in
   * general-purpose code, object keys and assignments are (not the names a condition tests).
   */
  keys: boolean;
  /** A program or script (not configuration): its keys count only where it declares infrastructure. */
  code: boolean;
}

const BINARY =
  /\.(?:png|jpe?g|gif|bmp|ico|icns|webp|tiff?|psd|pdf|zip|gz|tgz|bz2|xz|zst|7z|rar|tar|jar|war|ear|whl|egg|so|dylib|dll|exe|bin|dat|o|a|lib|class|pyc|pyo|woff2?|ttf|otf|eot|mp[34]|m4a|mov|avi|mkv|webm|wav|ogg|flac|parquet|avro|orc|pkl|pickle|pt|pth|onnx|safetensors|h5|hdf5|npz|npy|tflite|gguf|ckpt|db|sqlite3?|keystore|jks|p12|pfx|der)$/i;
// Examples and samples (`terraform.tfvars.example`) are documentation too: no tool applies them.
const DOCS = /\.(?:md|markdown|mdx|rst|adoc|asciidoc|txt|org|textile|rdoc|example|sample|dist)$/i;
const DOC_NAMES =
  /^(?:LICENSE|LICENCE|NOTICE|COPYING|AUTHORS|CONTRIBUTORS|CHANGELOG|CHANGES|CODEOWNERS|OWNERS|OWNERS_ALIASES|SECURITY|README)(?:\.[A-Za-z]+)?$/;
const DEPENDENCY_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'go.mod',
  'go.sum',
  'go.work',
  'go.work.sum',
  'Cargo.toml',
  'Cargo.lock',
  'poetry.lock',
  'Pipfile',
  'Pipfile.lock',
  'uv.lock',
  'pyproject.toml',
  'Gemfile',
  'Gemfile.lock',
  'composer.json',
  'composer.lock',
  '.terraform.lock.hcl',
  'Chart.lock',
  'flake.lock',
  'mix.lock',
  'pubspec.lock',
]);
const YAML = /\.(?:ya?ml|tpl|gotmpl)$/i;
// A template of another format is read as that format: `values.yaml.j2`, `main.tf.tmpl`.
const TEMPLATE_SUFFIX = /\.(?:j2|jinja2?|tmpl|tftpl|gotmpl|tpl|template|erb|hbs|mustache|liquid)$/i;
const HCL = /\.(?:tf|tofu|tfvars|hcl|nomad|pkr\.hcl)$/i;
const JSONISH = /\.(?:json|jsonc|json5|cue|bicep|bicepparam)$/i;
const JSONNET = /\.(?:jsonnet|libsonnet)$/i;
const SLASH_CODE =
  /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs|go|java|kt|kts|cs|fs|scala|sc|groovy|gradle|rs|swift|c|cc|cpp|cxx|h|hh|hpp|php|dart|proto|zig|sol|v)$/i;
const HASH_CODE = /\.(?:py|pyi|rb|pl|pm|r|jl|sh|bash|zsh|ksh|fish|ps1|psm1|nix|ex|exs|cr|tcl|awk|mk|cmake|star|bzl)$/i;
const HASH_CODE_NAMES =
  /^(?:Dockerfile|Containerfile|Makefile|GNUmakefile|Rakefile|Vagrantfile|Tiltfile|Jenkinsfile|BUILD|WORKSPACE)(?:\..+)?$/;
const INI = /\.(?:toml|ini|cfg|conf|properties|env|editorconfig|gitignore|dockerignore|helmignore)$/i;

const of = (kind: TextKind, hash: boolean, slash: boolean, keys: boolean, code = false): Syntax => ({ kind, hash, slash, keys, code });

// Model and notebook files of ML frameworks: programs and their settings, never applied as capacity.
const MODEL_CONFIG = /\.(?:ipynb|pbtxt|prototxt)$/i;

/**
 * Infrastructure SDKs a program imports to declare cloud or cluster resources: Pulumi, the AWS CDK,
 * CDK for Terraform, cdk8s, and the CDK's construct library, in the languages they ship for.
 */
const IAC_SDK =
  /@pulumi\/|\bpulumi(?:_[a-z]+)?\b|github\.com\/pulumi\/|\bPulumi\.|aws-cdk-lib|@aws-cdk\/|\baws_cdk\b|software\.amazon\.awscdk|aws-cdk-go|Amazon\.CDK|\bcdktf\b|@cdktf\/|\bcdk8s\b|\bconstructs\b/;

/** True when a program declares infrastructure through one of the SDKs above. */
export function declaresInfrastructure(text: string): boolean {
  return IAC_SDK.test(text);
}

/**
 * A node pool command of a cloud's CLI written in a program's strings, whole or a word at a time,
 * its words within a few lines of each other
 * (`["gcloud", "container", "node-pools", "create", …]`, `f"az aks nodepool add …"`): GKE's
 * `node-pools`, AKS's `nodepool` after `aks`, EKS's `create-nodegroup` and
 * `update-nodegroup-config`, eksctl's `nodegroup`.
 */
const POOL_CLI =
  /\bnode-pools\b|\baks\b[\s\S]{0,160}?\bnodepool\b|\b(?:create|update)-nodegroup(?:-config)?\b|\beksctl\b[\s\S]{0,160}?\bnodegroups?\b/;
/** Scripts and Makefiles: the cli-scripts reader reads their commands with the variables they set. */
const SCRIPT_PATH = /\.(?:sh|bash|zsh|ksh|fish|ps1|psm1|mk)$|(?:^|\/)(?:GNUmakefile|[Mm]akefile)$/;

/**
 * True when a program (not a script the cli-scripts reader reads) makes or sizes node pools by
 * running a cloud's CLI: its settings are then capacity as an SDK program's are (the GPU type,
 * the GPUs per node and the node maximum a deploy tool hands `gcloud container node-pools create`).
 */
export function runsPoolCli(path: string, text: string): boolean {
  return !SCRIPT_PATH.test(path) && POOL_CLI.test(text);
}

export function syntaxOf(path: string): Syntax {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (BINARY.test(name)) return of('binary', false, false, false);
  if (DEPENDENCY_NAMES.has(name) || /^requirements[\w.-]*\.(?:txt|in)$/.test(name)) return of('dependencies', false, false, false);
  if (DOCS.test(name) || DOC_NAMES.test(name)) return of('docs', false, false, false);
  const inner = TEMPLATE_SUFFIX.test(name) && /\.[^.]+\.[^.]+$/.test(name) ? name.replace(TEMPLATE_SUFFIX, '') : name;
  if (YAML.test(inner)) return of('yaml', true, false, true);
  if (HCL.test(inner)) return of('brace', true, true, true);
  if (JSONISH.test(inner)) return of('brace', false, true, true);
  if (JSONNET.test(inner)) return of('brace', true, true, true);
  if (MODEL_CONFIG.test(inner)) return of('brace', true, true, true, true);
  if (SLASH_CODE.test(inner)) return of('brace', false, true, true, true);
  if (HASH_CODE.test(inner) || HASH_CODE_NAMES.test(inner)) return of('brace', true, false, true, true);
  if (INI.test(inner)) return of('plain', true, false, true);
  // A template whose inner format is unknown (`.tftpl` of cloud-init, say) and anything else.
  return of('plain', true, false, true);
}
