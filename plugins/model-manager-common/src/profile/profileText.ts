import { z } from 'zod';
import { stringParams } from '../schema/stringParams';

/** A one-line, non-empty string of a profile; `what` says what it takes, for the messages. */
export const text = (what: string) =>
  z
    .string(stringParams(what))
    .min(1, `must not be empty (${what})`)
    .regex(/^[^\r\n\0]*$/, `must be a single line (${what})`);
