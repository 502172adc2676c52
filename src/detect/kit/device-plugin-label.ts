/** The node label that picks a device-plugin config by its key (NVIDIA device plugin, GPU Operator). */
export const DEVICE_PLUGIN_CONFIG_LABEL = 'nvidia.com/device-plugin.config';
