import { describe, expect, it } from 'vitest';
import type { DetectedChanges } from './detect-changes.js';
import { detectPr } from '../../test/detect/real-fixtures.js';

/**
 * Terraform's JSON syntax is traced block by block as HCL is: a changed value reaching only a CPU
 * group beside a GPU one no reader counts is no change, one reaching the GPU group is not
 * followed; JSON written with its blocks on one line keeps the module-wide answer.
 */

const main = {
  resource: {
    aws_instance: {
      trainer: { count: '${var.trainer_size}', ami: 'ami-1', instance_type: 'p5.48xlarge' },
      web: { count: '${local.web}', ami: 'ami-1', instance_type: 'm5.large' },
    },
  },
  locals: { web: '${var.web_size}' },
};
const variables = { variable: { trainer_size: { type: 'number', default: 1 }, web_size: { type: 'number', default: 2 } } };

const tree = (vars: string, pretty: boolean): Record<string, string> => ({
  'infra/main.tf.json': JSON.stringify(main, null, pretty ? 2 : 0),
  'infra/variables.tf.json': JSON.stringify(variables, null, pretty ? 2 : 0),
  'infra/terraform.tfvars': vars,
});
const notFollowed = (r: DetectedChanges) => r.coverage.filter((c) => c.state === 'not-followed').map((c) => c.file);

describe('the reach through Terraform JSON syntax', () => {
  it('a CPU count beside an unread GPU group is no change; the GPU count is not followed', async () => {
    const cpu = await detectPr(tree('web_size = 2\n', true), tree('web_size = 5\n', true));
    expect(notFollowed(cpu)).toEqual([]);
    const gpu = await detectPr(tree('trainer_size = 1\n', true), tree('trainer_size = 4\n', true));
    expect(notFollowed(gpu)).toEqual(['infra/terraform.tfvars']);
  });

  it('blocks on one line: the GPU count is still not followed', async () => {
    const gpu = await detectPr(tree('trainer_size = 1\n', false), tree('trainer_size = 4\n', false));
    expect(notFollowed(gpu)).toEqual(['infra/terraform.tfvars']);
  });
});
