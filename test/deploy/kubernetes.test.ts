import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parse } from 'yaml';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S = join(ROOT, 'deploy/kubernetes');

type Model = new (data: unknown) => { validate(): void };
/** A kubernetes-models class: its kind, and a constructor whose instance is the typed object. */
interface KindModel<T> {
  readonly kind: string;
  new (data: never): T & { validate(): void };
}

const Manifest = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.looseObject({ name: z.string().optional() }).optional(),
});
const Kustomization = z.looseObject({
  kind: z.string(),
  resources: z.array(z.string()).optional(),
  components: z.array(z.string()).optional(),
  patches: z.array(z.looseObject({ target: z.unknown(), patch: z.string() })).optional(),
});
const JsonPatch = z.array(
  z.looseObject({ op: z.string(), path: z.string(), value: z.looseObject({ name: z.string(), value: z.string() }) }),
);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const load = (file: string): unknown => parse(readFileSync(file, 'utf8'));
const loadManifest = (file: string) => Manifest.parse(load(file));
const isKustomization = (file: string) => /(^|\/)kustomization\.ya?ml$/.test(file);
const manifests = yamlFiles(K8S).filter((f) => !isKustomization(f));
/** The App's own objects are all named gpu-justify; the optional Redis's are not. */
const rawOfKind = (kind: string, name: string) => {
  const found = manifests.map(loadManifest).filter((m) => m.kind === kind && m.metadata?.name === name);
  expect(found, kind).toHaveLength(1);
  return found[0] as z.infer<typeof Manifest>;
};
/** The one manifest of the model's kind, validated against its schema and typed by it. */
function byKind<T>(model: KindModel<T>, name = 'gpu-justify'): T {
  const typed = new model(rawOfKind(model.kind, name) as never);
  typed.validate();
  return typed;
}

/** The kubernetes-models class of each kind the manifests may use, by `apiVersion/kind`. */
const MODELS: Record<string, Model> = Object.fromEntries(
  [Deployment, Ingress, Namespace, PodDisruptionBudget, Secret, Service].map((m) => [`${m.apiVersion}/${m.kind}`, m as unknown as Model]),
);

function modelFor(apiVersion: string, kind: string): Model {
  const model = MODELS[`${apiVersion}/${kind}`];
  if (!model) throw new Error(`no Kubernetes schema loaded for ${apiVersion} ${kind}: add its kubernetes-models class`);
  return model;
}

describe('deploy/kubernetes', () => {
  it('has the manifests the App needs', () => {
    expect(
      manifests
        .map(loadManifest)
        .map((m) => m.kind)
        .sort(),
    ).toEqual(['Deployment', 'Deployment', 'Ingress', 'Namespace', 'PodDisruptionBudget', 'Secret', 'Service', 'Service']);
  });

  it.each(manifests.map((f) => [relative(K8S, f), f]))('%s is valid against the Kubernetes schema', (_name, file) => {
    const obj = loadManifest(file);
    const Model = modelFor(obj.apiVersion, obj.kind);
    expect(() => new Model(obj).validate()).not.toThrow();
  });

  it('schema validation catches a wrong type (so the check above can fail)', () => {
    const raw = rawOfKind('Deployment', 'gpu-justify');
    const deployment = { ...raw, spec: { ...(raw['spec'] as object), replicas: 'two' } };
    const Model = modelFor('apps/v1', 'Deployment');
    expect(() => new Model(deployment).validate()).toThrow(/replicas/);
  });

  it('every kustomization lists exactly the files beside it (and its components)', () => {
    for (const k of yamlFiles(K8S).filter(isKustomization)) {
      const dir = join(k, '..');
      const kustomization = Kustomization.parse(load(k));
      const listed = [...(kustomization.resources ?? [])].sort();
      const present = readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f) && !isKustomization(f))
        .sort();
      expect(listed, relative(K8S, k)).toEqual(present);
      const components = kustomization.components ?? [];
      for (const c of components) expect(yamlFiles(join(dir, c)).some(isKustomization), c).toBe(true);
    }
    // The optional Ingress is a component, and the base offers it (commented out) by the right path.
    const component = Kustomization.parse(load(join(K8S, 'components/ingress/kustomization.yaml')));
    expect(component.kind).toBe('Component');
    expect(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')).toMatch(/^#\s+- components\/ingress$/m);
    expect(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')).toMatch(/^#\s+- components\/redis$/m);
  });

  it('the Redis component points the App at its Redis Service, and runs it hardened, persistent and never evicting', () => {
    const component = Kustomization.parse(load(join(K8S, 'components/redis/kustomization.yaml')));
    expect(component.kind).toBe('Component');
    const [patch, ...more] = component.patches ?? [];
    expect(more).toEqual([]);
    expect(patch?.target).toEqual({ kind: 'Deployment', name: byKind(Deployment).metadata?.name });
    const [op, ...ops] = JsonPatch.parse(parse(patch?.patch ?? ''));
    expect(ops).toEqual([]);
    // Appends to the env list the App's container already has.
    expect(op).toMatchObject({ op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'REDIS_URL' } });
    expect(Array.isArray(byKind(Deployment).spec?.template.spec?.containers[0]?.env)).toBe(true);
    const service = byKind(Service, 'gpu-justify-redis');
    const url = new URL(op?.value.value ?? '');
    expect(url.protocol).toBe('redis:');
    expect(url.hostname).toBe(service.metadata?.name);
    expect(Number(url.port)).toBe(service.spec?.ports?.[0]?.port);
    const redis = byKind(Deployment, 'gpu-justify-redis');
    const labels = redis.spec?.template.metadata?.labels ?? {};
    expect(labels).toMatchObject(service.spec?.selector ?? {});
    // Its pods are not the App's: the App's Service and PodDisruptionBudget never select them.
    expect(labels).not.toMatchObject(byKind(Service).spec?.selector ?? {});
    const pod = redis.spec?.template.spec;
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod?.containers[0]?.securityContext).toMatchObject({ readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    // It holds the queue of reviews GitHub was told were taken: kept on disk, and no key evicted
    // (BullMQ's requirement; an evicted lock or mailbox reviews twice or never).
    const args = pod?.containers[0]?.args ?? [];
    const arg = (name: string) => args[args.indexOf(name) + 1];
    expect(arg('--appendonly')).toBe('yes');
    expect(arg('--maxmemory-policy')).toBe('noeviction');
    const dir = arg('--dir');
    const mount = pod?.containers[0]?.volumeMounts?.find((m) => m.mountPath === dir);
    expect(mount, `a volume at ${dir}`).toBeDefined();
    expect(pod?.volumes?.some((v) => v.name === mount?.name)).toBe(true);
  });

  it('runs two hardened replicas probed on the health endpoint Probot serves', () => {
    const d = byKind(Deployment);
    expect(d.spec?.replicas).toBeGreaterThanOrEqual(2);
    const pod = d.spec?.template.spec;
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod?.securityContext?.runAsUser).toBeGreaterThan(0);
    const [c, ...others] = pod?.containers ?? [];
    expect(others).toEqual([]);
    expect(c?.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(c?.resources?.requests).toBeDefined();
    expect(c?.resources?.limits?.['memory']).toBeDefined();

    const probot = readFileSync(join(ROOT, 'node_modules/probot/lib/server/handlers/ping.js'), 'utf8');
    for (const probe of [c?.readinessProbe, c?.livenessProbe]) {
      expect(probot).toContain(`"${probe?.httpGet?.path}"`);
      expect(probe?.httpGet?.port).toBe('http');
    }
    const port = c?.ports?.find((p) => p.name === 'http');
    const env = Object.fromEntries((c?.env ?? []).map((e) => [e.name, e.value]));
    expect(Number(env['PORT'])).toBe(port?.containerPort);
    // Probot listens on localhost unless HOST says otherwise; the kubelet probes the pod's IP.
    expect(env['HOST']).toBe('0.0.0.0');
    // /tmp is the one writable place, as the root filesystem is read-only.
    const tmp = c?.volumeMounts?.find((m) => m.mountPath === '/tmp');
    expect(pod?.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it('wires the Service, PodDisruptionBudget and Ingress to the pods', () => {
    const d = byKind(Deployment);
    const labels = d.spec?.template.metadata?.labels;
    expect(labels).toMatchObject(d.spec?.selector.matchLabels ?? {});
    expect(labels).toMatchObject(byKind(Service).spec?.selector ?? {});
    expect(labels).toMatchObject(byKind(PodDisruptionBudget).spec?.selector?.matchLabels ?? {});
    expect(byKind(PodDisruptionBudget).spec?.minAvailable).toBeLessThan(d.spec?.replicas ?? 0);
    const service = byKind(Service);
    const rules = byKind(Ingress).spec?.rules ?? [];
    expect(rules).not.toEqual([]);
    for (const rule of rules) {
      for (const path of rule.http?.paths ?? []) {
        expect(path.backend.service?.name).toBe(service.metadata?.name);
        expect((service.spec?.ports ?? []).map((p) => p.name)).toContain(path.backend.service?.port?.name);
        expect(path.path).toBe('/api/github/webhooks');
      }
    }
  });

  it('passes the App only environment variables that Probot or gpu-justify read', () => {
    const secret = byKind(Secret);
    const d = byKind(Deployment);
    const container = d.spec?.template.spec?.containers[0];
    expect(container?.envFrom).toEqual([{ secretRef: { name: secret.metadata?.name } }]);

    const probotSources = ['node_modules/probot/lib/bin/read-env-options.js', 'node_modules/@probot/get-private-key/dist-src/index.js'].map(
      (f) => readFileSync(join(ROOT, f), 'utf8'),
    );
    const probotReads = new Set(probotSources.flatMap((s) => [...s.matchAll(/env\.([A-Z_]+)/g)].map((m) => m[1])));
    // docs/telemetry.md: the operator's telemetry settings, which the telemetry stage reads.
    const TELEMETRY_ENV = ['PROMETHEUS_URL', 'PROMETHEUS_BEARER_TOKEN', 'PROMETHEUS_BASIC_AUTH', 'PROMETHEUS_HEADERS', 'OPENCOST_URL'];
    const telemetry = tsSources(join(ROOT, 'src/telemetry'));
    const appReads = (name: string) =>
      probotReads.has(name) || (TELEMETRY_ENV.includes(name) && new RegExp(`\\b${name}\\b`).test(telemetry));

    const keys = Object.keys(secret.stringData ?? {});
    expect(keys).toEqual(expect.arrayContaining(['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET']));
    expect(keys).toEqual(expect.arrayContaining(['PROMETHEUS_URL', 'PROMETHEUS_BEARER_TOKEN', 'OPENCOST_URL']));
    for (const name of [...keys, ...(container?.env ?? []).map((e) => e.name)]) {
      expect(appReads(name), name).toBe(true);
    }
  });
});

function tsSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? tsSources(join(dir, e.name)) : e.name.endsWith('.ts') ? readFileSync(join(dir, e.name), 'utf8') : ''))
    .join('\n');
}
