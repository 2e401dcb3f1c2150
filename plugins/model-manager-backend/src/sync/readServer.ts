import {
  readPath,
  serverImageOf,
  SERVER_VERSION_LABEL,
  type StatusReading,
} from '@model-manager/plugin-model-manager-common';

/** Version, image, env and args of a model server object (live, or as rendered). */
export type ServerFields = {
  version?: string;
  image?: string;
  env?: Record<string, string>;
  args?: string[];
};

/**
 * Reads the model server container of an object: its image where the engine profile's
 * `status.image_path` says, and `env` and `args` beside it (the same container, as KServe's
 * `predictor.model` and `LLMInferenceService.spec.template.containers[name=main]` hold them).
 */
export function readServer(
  object: Record<string, any> | undefined,
  reading: Pick<StatusReading, 'imagePath'> | undefined,
): ServerFields {
  if (!object) return {};
  const version = object.metadata?.labels?.[SERVER_VERSION_LABEL];
  const image = serverImageOf(object, reading);
  const container = reading
    ? (readPath(object, reading.imagePath.slice(0, -1)) as
        | Record<string, any>
        | undefined)
    : undefined;
  const env = Array.isArray(container?.env)
    ? Object.fromEntries(
        (container!.env as Array<Record<string, any>>)
          .filter(e => typeof e?.name === 'string')
          .map(e => [
            e.name as string,
            typeof e.value === 'string'
              ? e.value
              : e.valueFrom
              ? `(from ${Object.keys(e.valueFrom).join(', ')})`
              : '',
          ]),
      )
    : undefined;
  const args = Array.isArray(container?.args)
    ? (container!.args as unknown[]).map(String)
    : undefined;
  return {
    ...(typeof version === 'string' ? { version } : {}),
    ...(image ? { image } : {}),
    ...(env ? { env } : {}),
    ...(args ? { args } : {}),
  };
}
