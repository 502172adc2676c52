import type { Verdict } from '../domain/index.js';

export const VERDICT_ICON: Record<Verdict, string> = {
  'not-justified': '⛔',
  'partially-justified': '⚠️',
  justified: '✅',
  'insufficient-evidence': '❔',
  'no-gpu-change': '➖',
};

export const VERDICT_TITLE: Record<Verdict, string> = {
  'not-justified': 'GPU increase not justified',
  'partially-justified': 'GPU increase partly justified',
  justified: 'GPU increase justified',
  'insufficient-evidence': 'Not enough evidence to judge the GPU increase',
  'no-gpu-change': 'No GPU capacity change',
};
