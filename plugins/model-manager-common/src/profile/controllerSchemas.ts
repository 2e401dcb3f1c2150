/**
 * The profile sections about what an engine's controller does by itself, per routing value
 * (`controller_gateway`, `controller_kinds`, `controller_tls`), and what a gateway controller's
 * config must say for the objects a routing renders (`gateway_config`): preflight checks them on
 * the target cluster.
 */
import { z } from 'zod';
import { text } from './profileText';

/** A JSON field of a key of a ConfigMap: where a controller's own config says something. */
const configMapField = (field: string) =>
  z
    .object({
      namespace: text('the ConfigMap namespace, e.g. kserve'),
      name: text('the ConfigMap name, e.g. inferenceservice-config'),
      key: text('the ConfigMap key holding JSON, e.g. ingress'),
      field: text(field),
    })
    .strict();

// Per routing value, the Gateway the engine's controller attaches the model's route to by
// itself, as its own config names it (vLLM on epp: KServe's managed HTTPRoute and
// kserveIngressGateway of inferenceservice-config); preflight checks that it exists.
export const controllerGatewaySchema = z
  .record(
    z
      .object({
        config_map: configMapField(
          'the JSON field naming the Gateway, e.g. kserveIngressGateway',
        ),
        default: z
          .string({
            required_error:
              'default is required: the Gateway the controller uses when its config names none, namespace/name, e.g. kserve/kserve-ingress-gateway',
          })
          .regex(
            /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/,
            'default must be namespace/name, e.g. kserve/kserve-ingress-gateway',
          ),
      })
      .strict(),
  )
  .default({});

// Per routing value, the kinds the engine's controller creates for a model by itself (vLLM on
// epp: KServe's InferencePool and HTTPRoute); preflight checks the cluster serves them.
export const controllerKindsSchema = z
  .record(
    z.array(
      z
        .object({
          api_version: text(
            'an apiVersion, group/version or v1, e.g. inference.networking.k8s.io/v1',
          ).regex(
            /^([a-z0-9]([-.a-z0-9]*[a-z0-9])?\/)?v[0-9]+((alpha|beta)[0-9]+)?$/,
            'must be an apiVersion, group/version or v1, e.g. inference.networking.k8s.io/v1',
          ),
          kind: text('a kind, e.g. InferencePool').regex(
            /^[A-Z][A-Za-z0-9]*$/,
            'must be a kind, e.g. InferencePool',
          ),
        })
        .strict(),
    ),
  )
  .default({});

// Per routing value whose routes send plain HTTP, the switch in the engine's controller config
// that makes it serve the workload over HTTPS instead (vLLM on aigateway: KServe's
// ingress.enableLLMInferenceServiceTLS); preflight fails while it is true.
export const controllerTlsSchema = z
  .record(
    z
      .object({
        config_map: configMapField(
          'the JSON boolean field that turns TLS on, e.g. enableLLMInferenceServiceTLS',
        ),
      })
      .strict(),
  )
  .default({});

const scalar = (what: string) =>
  z.union([z.boolean(), z.number(), z.string()], {
    errorMap: () => ({
      message: `${what} must be a boolean, a number or a string, e.g. true`,
    }),
  });

/**
 * A field of a controller's config file held in a ConfigMap key (Envoy Gateway's
 * envoy-gateway.yaml): `field` is a dot path into it.
 */
const configFileField = (what: string, example: string) =>
  z
    .object({
      namespace: text('the ConfigMap namespace, e.g. envoy-gateway-system'),
      name: text('the ConfigMap name, e.g. envoy-gateway-config'),
      key: text(
        'the ConfigMap key holding the config, e.g. envoy-gateway.yaml',
      ),
      field: text(`${what}, e.g. ${example}`).regex(
        /^[^.]+(\.[^.]+)*$/,
        `must be a dot path of field names, e.g. ${example}`,
      ),
    })
    .strict();

/** How that ConfigMap key is written. */
const configFormat = z.enum(['json', 'yaml'], {
  errorMap: () => ({
    message: 'format must be json or yaml: how the ConfigMap key is written',
  }),
});

// Per routing value, what the config of the controller that serves the routing's objects must
// say for it to accept them (routing aigateway: Envoy Gateway accepts a Backend only with
// extensionApis.enableBackend: true in its envoy-gateway.yaml), a value (must_be) or any value
// (must_be_set: its extensionManager, which calls the AI gateway's extension server); preflight
// fails while it does not.
export const gatewayConfigSchema = z
  .record(
    z.array(
      z
        .object({
          controller: text(
            'the controller whose config it is, e.g. Envoy Gateway',
          ),
          config_map: configFileField(
            'the field, a dot path into the config',
            'extensionApis.enableBackend',
          ),
          format: configFormat,
          must_be: scalar('must_be').optional(),
          must_be_set: z
            .literal(true, {
              errorMap: () => ({
                message:
                  'must_be_set must be true (any value will do, as long as there is one), or left out for must_be',
              }),
            })
            .optional(),
          unset: scalar('unset').optional(),
          needed_for: text(
            "what the controller accepts only then, e.g. the model's Backend",
          ),
          how: text(
            'how to set it, e.g. the Helm value that does, for the fix',
          ).optional(),
        })
        .strict()
        .superRefine((need, ctx) => {
          if ((need.must_be === undefined) === (need.must_be_set === undefined))
            ctx.addIssue({
              code: z.ZodIssueCode.custom,
              path: need.must_be === undefined ? [] : ['must_be_set'],
              message:
                'say what the field must be: must_be (the value, e.g. true) or must_be_set: true (any value), not both',
            });
          else if (need.must_be_set && need.unset !== undefined)
            ctx.addIssue({
              code: z.ZodIssueCode.custom,
              path: ['unset'],
              message:
                'unset is the default the controller takes for must_be; with must_be_set, a field not set is what fails: remove unset',
            });
        }),
    ),
  )
  .default({});

// Per routing value whose rendered routes attach to a Gateway, the controller that must serve
// that Gateway's class (routing aigateway: Envoy Gateway, whose extension server adds the AI
// gateway's filters; another implementation would take the routes but not their Backends). The
// class's spec.controllerName must be `controller_name`, or what the controller's own config names
// (`config_map`, a dot path `field`, e.g. Envoy Gateway's gateway.controllerName) when it does.
export const gatewayClassSchema = z
  .record(
    z
      .object({
        controller: text('the controller, e.g. Envoy Gateway'),
        controller_name: text(
          'the GatewayClass controllerName it serves by default, e.g. gateway.envoyproxy.io/gatewayclass-controller',
        ),
        config_map: configFileField(
          'the field naming the controllerName, a dot path',
          'gateway.controllerName',
        ).optional(),
        format: configFormat.optional(),
      })
      .strict()
      .superRefine((c, ctx) => {
        if ((c.config_map === undefined) !== (c.format === undefined))
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [c.config_map === undefined ? 'format' : 'config_map'],
            message:
              'config_map and format go together: where the controller names its controllerName, and how that key is written',
          });
      }),
  )
  .default({});
