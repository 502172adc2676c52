// The layers of src/ and what each may import, checked by `npm run lint` (ARCHITECTURE.md draws
// them). One row per top-level folder of src/: a folder imports itself and the folders its row
// names, nothing else. Rules match folders, never file names, so files may move inside a folder.
/** @type {Record<string, string[]>} */
const LAYERS = {
  // Helpers that are not vocabulary and know nothing of GPUs: bounded concurrency, the nearest name,
  // secrets redacted, indexed reads. Every other folder may import it.
  util: [],
  // The shared vocabulary: types, codes and the few rules every stage agrees on.
  domain: [],
  // Pure: codes and numbers from measurements declared in domain/, never how they were taken.
  analysis: ['domain', 'util'],
  // Reads capacity files; kit/ holds what several formats share.
  detect: ['domain', 'util'],
  // Asks Prometheus, OpenCost and load-test files; answers in domain/'s measurements.
  telemetry: ['domain', 'util'],
  // The catalog and policy, and workloads read from manifests (with detect/kit's YAML and HCL readers).
  workloads: ['domain', 'util', 'detect'],
  // Every sentence: what analysis/ found, in words (and catalog times as the catalog writes them).
  report: ['domain', 'util', 'analysis', 'workloads'],
  // The core shared by CLI, Action and App: reads, measures, judges, assembles the result.
  review: ['domain', 'util', 'detect', 'workloads', 'telemetry', 'analysis', 'report'],
  // The surfaces. The CLI's `review` reads a pull request through github/'s reader, and its
  // `action` command runs the Action's step.
  cli: ['domain', 'util', 'detect', 'workloads', 'telemetry', 'analysis', 'report', 'review', 'github', 'action'],
  // The Action's step: one review of the event's pull request through github/, entered by the CLI's main.
  action: ['domain', 'util', 'detect', 'workloads', 'telemetry', 'analysis', 'report', 'review', 'github', 'cli'],
  github: ['domain', 'util', 'detect', 'workloads', 'telemetry', 'analysis', 'report', 'review', 'cli'],
};

const TEST = '\\.test\\.ts$';

const layerRules = Object.entries(LAYERS).map(([layer, may]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ imports only ${may.length === 0 ? 'itself' : `itself and ${may.join(', ')}`} (the layer table in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: `^src/(${[layer, ...may].join('|')})/` },
}));

// Folders whose index.ts is their API: from outside, a file imports them through it and nothing
// deeper, so what other folders lean on stays one list. github/'s own index.ts is what cli/ and
// action/ use of it; inside github/, one part reaches another through that part's index.ts.
// (domain/ is vocabulary, each file of it imported by name.)
const FACES = ['analysis', 'report', 'telemetry', 'workloads', 'review', 'github', 'github/api', 'github/overrides', 'github/publish'];

const faceRules = FACES.map((face) => ({
  name: `through-face-${face.replace('/', '-')}`,
  comment: `from outside src/${face}/, import it through its face, src/${face}/index.ts (FACES in .dependency-cruiser.cjs)`,
  severity: 'error',
  from: { path: '^src/', pathNot: `^src/${face}/` },
  to: { path: `^src/${face}/`, pathNot: `^src/${face}/index\\.ts$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycles, type-only imports included: move the shared type to the file that owns it',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'layer-unknown',
      comment: 'every file of src/ belongs to a layer of the table in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${Object.keys(LAYERS).join('|')})/` },
      to: {},
    },
    ...layerRules,
    ...faceRules,
    {
      name: 'through-face-detect',
      comment:
        'from outside src/detect/, import it through src/detect/index.ts; workloads/ also reads manifests with kit/ and kustomization.ts',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/detect/' },
      to: { path: '^src/detect/', pathNot: '^src/detect/(index\\.ts$|kit/|kustomize/kustomization\\.ts$)' },
    },
    {
      name: 'detect-kit-stands-alone',
      comment: 'detect/kit/ is what several formats share: it leans on nothing of detect/ but the parser contract',
      severity: 'error',
      from: { path: '^src/detect/kit/', pathNot: TEST },
      to: { path: '^src/detect/', pathNot: '^src/detect/(kit/|parser\\.ts$)' },
    },
    {
      name: 'registry-through-faces',
      comment: 'the registry takes each format through its face, index.ts (registry.test.ts checks the faces)',
      severity: 'error',
      from: { path: '^src/detect/registry\\.ts$' },
      to: { path: '^src/detect/[^/]+/', pathNot: '^src/detect/[^/]+/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)fixtures/' },
    // Type-only imports are edges too: a cycle through `import type` still ties the files together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
