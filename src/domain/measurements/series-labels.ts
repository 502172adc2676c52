/**
 * The series labels analysis reads to tell the parts of one measurement apart, and their values.
 * Telemetry writes them (its queries tag each part), analysis reads them: both take them from here.
 */

/** `sm-activity`: the DCGM field that answered (SM activity where exported, else graphics-engine activity). */
export const FIELD_LABEL = 'dcgm_field';
export const SM_FIELDS = ['DCGM_FI_PROF_SM_ACTIVE', 'DCGM_FI_PROF_GR_ENGINE_ACTIVE'] as const;

/** The part of a multi-part measurement (`pod-gpus`, `mig-activity`, `mig-requests`, `mig-pods`) a series is. */
export const POD_MEASURE_LABEL = 'measure';

/** Parts of `pod-gpus`: GPUs a pod holds, and how many of them are busy. */
export const POD_MEASURES = { gpus: 'gpus', busy: 'busy' } as const;

/** Parts of `mig-activity`. */
export const MIG_ACTIVITY = {
  /** Instances per profile (and model). */
  slices: 'slices',
  gr: 'gr',
  sm: 'sm',
  tensor: 'tensor',
  dram: 'dram',
  /** Whole (non-MIG) GPUs: GPU_UTIL ÷ 100 summed, and the profiling ratios summed. */
  wholeBusy: 'whole-busy',
  wholeSm: 'whole-sm',
  wholeGr: 'whole-gr',
  wholeTensor: 'whole-tensor',
  wholeDram: 'whole-dram',
} as const;

/** Parts of `mig-requests`. */
export const MIG_REQUESTS = {
  /** Mixed strategy, by `resource`. */
  requested: 'requested',
  allocatable: 'allocatable',
  /** Single strategy: `nvidia_com_gpu` on nodes whose GPUs are sliced, by profile. */
  singleRequested: 'single-requested',
  singleAllocatable: 'single-allocatable',
} as const;

/** Parts of `mig-pods`. */
export const MIG_POD_MEASURES = { slices: 'slices', busy: 'busy' } as const;

/** Parts of `replica-peaks`: each replica's most over the window. */
export const REPLICA_PEAKS = { fb: 'fb', sm: 'sm', gr: 'gr', util: 'util', total: 'total' } as const;
