import { ResponseError } from '@backstage/errors';

/**
 * What went wrong, for a user: the backend's own message (e.g. "unknown runtime 'tgi'", or which
 * objects a failed rollback applied) rather than ResponseError's "Request failed with 404".
 */
export function errorText(error: Error): string {
  if (error instanceof ResponseError || error.name === 'ResponseError') {
    const cause = (error as ResponseError).cause as Error | undefined;
    if (cause?.message)
      return `${cause.message} (${(error as ResponseError).statusCode})`;
  }
  return error.message;
}
