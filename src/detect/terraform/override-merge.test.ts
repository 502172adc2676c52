import { describe, expect, it } from 'vitest';
import { parseHcl } from './hcl.js';
import { mergeOverrides } from './override-merge.js';
import type { MergeFile } from './override-merge.js';

const file = (path: string, text: string): MergeFile => {
  const hcl = parseHcl(path, text);
  if (!hcl.ok) throw new Error(hcl.error.message);
  return { path, body: hcl.value };
};

const MAIN = `resource "aws_instance" "web" {
  instance_type = "t3.large"
  ami           = "ami-1"
  ebs_block_device {
    device_name = "a"
  }
  ebs_block_device {
    device_name = "b"
  }
  lifecycle {
    ignore_changes        = [ami]
    create_before_destroy = false
  }
}

locals {
  a = 1
}

locals {
  b = 2
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
    google = { source = "hashicorp/google" }
  }
}
`;

/** Terraform's merge of override files (developer.hashicorp.com/terraform/language/files/override). */
describe('mergeOverrides', () => {
  it('replaces arguments and whole nested block types, merges lifecycle argument by argument', () => {
    const over = file(
      'override.tf',
      'resource "aws_instance" "web" {\n  instance_type = "p4d.24xlarge"\n  ebs_block_device {\n    device_name = "c"\n  }\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n',
    );
    const out = mergeOverrides([file('main.tf', MAIN)], [over]);
    expect(out.problems).toEqual([]);
    const web = (out.files[0]?.body.resource as Record<string, Record<string, unknown[]>>).aws_instance?.web?.[0];
    expect(web).toMatchObject({
      instance_type: 'p4d.24xlarge',
      ami: 'ami-1',
      ebs_block_device: [{ device_name: 'c' }],
      lifecycle: [{ ignore_changes: ['${ami}'], create_before_destroy: true }],
    });
    expect(out.placements).toEqual([{ from: 'override.tf', header: ['resource', 'aws_instance', 'web'], into: 'main.tf' }]);
  });

  it('applies later files over earlier ones, whatever order they are given in', () => {
    const a = file('a_override.tf', 'resource "aws_instance" "web" {\n  instance_type = "g5.xlarge"\n}\n');
    const b = file('b_override.tf', 'resource "aws_instance" "web" {\n  instance_type = "m5.large"\n}\n');
    const out = mergeOverrides([file('main.tf', MAIN)], [b, a]);
    expect((out.files[0]?.body.resource as Record<string, Record<string, unknown[]>>).aws_instance?.web?.[0]).toMatchObject({
      instance_type: 'm5.large',
    });
  });

  it('merges locals by name, providers by alias, required_providers by provider', () => {
    const over = file(
      'override.tf',
      'locals {\n  b = 3\n}\n\nprovider "aws" {\n  alias  = "west"\n  region = "eu-west-1"\n}\n\nterraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = "~> 6.0" }\n  }\n}\n',
    );
    const out = mergeOverrides([file('main.tf', MAIN)], [over]);
    expect(out.problems).toEqual([]);
    const body = out.files[0]?.body ?? {};
    expect(body.locals).toEqual([{ a: 1 }, { b: 3 }]);
    expect((body.provider as Record<string, unknown[]>).aws).toEqual([{ region: 'us-east-1' }, { alias: 'west', region: 'eu-west-1' }]);
    expect(body.terraform).toEqual([
      { required_providers: [{ aws: { source: 'hashicorp/aws', version: '~> 6.0' }, google: { source: 'hashicorp/google' } }] },
    ]);
  });

  it('names what it cannot apply as Terraform would: no block to merge into, dynamic blocks, depends_on, moved', () => {
    const cases = [
      'resource "aws_instance" "other" {\n  instance_type = "p5.48xlarge"\n}\n',
      'resource "aws_instance" "web" {\n  dynamic "ebs_block_device" {\n    for_each = [1]\n    content {\n      device_name = "x"\n    }\n  }\n}\n',
      'resource "aws_instance" "web" {\n  depends_on = [aws_instance.x]\n}\n',
      'moved {\n  from = aws_instance.a\n  to   = aws_instance.web\n}\n',
      'locals {\n  c = 1\n}\n',
      'provider "google" {\n  project = "x"\n}\n',
    ];
    for (const text of cases) expect(mergeOverrides([file('main.tf', MAIN)], [file('override.tf', text)]).problems, text).toHaveLength(1);
    const dynamicBase = file('main.tf', 'resource "x" "y" {\n  dynamic "d" {\n    for_each = [1]\n    content {}\n  }\n}\n');
    expect(mergeOverrides([dynamicBase], [file('override.tf', 'resource "x" "y" {\n  d {\n    a = 1\n  }\n}\n')]).problems).toHaveLength(1);
  });

  it('leaves its inputs untouched', () => {
    const main = file('main.tf', MAIN);
    const before = JSON.stringify(main.body);
    mergeOverrides([main], [file('override.tf', 'resource "aws_instance" "web" {\n  ami = "x"\n}\n\nlocals {\n  a = 5\n}\n')]);
    expect(JSON.stringify(main.body)).toBe(before);
  });
});
