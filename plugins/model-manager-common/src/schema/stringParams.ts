import type { z } from 'zod';

/**
 * The params of a `z.string()` for a models.yaml or profile value, whose type error says what to
 * do: a number or boolean is what YAML read an unquoted value as (quote it); null is an empty
 * value or `~` (write one, or remove the key). `what` describes the value, e.g. `a version`.
 */
export function stringParams(what: string): z.RawCreateParams {
  return {
    errorMap: (issue, ctx) => {
      if (issue.code !== 'invalid_type') return { message: ctx.defaultError };
      // A missing key: what it takes (zodProblems words it "is required (…)").
      if (issue.received === 'undefined') return { message: what };
      if (issue.received === 'null')
        return {
          message: `must be a string (${what}), and YAML read it as null (an empty value or ~); write the value, or remove the key`,
        };
      return {
        message: `must be a string (${what}); quote it if YAML read it as a number or boolean`,
      };
    },
  };
}
