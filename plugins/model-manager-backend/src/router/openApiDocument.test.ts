import SwaggerParser from '@apidevtools/swagger-parser';
import { modelManagerContract } from '@model-manager/plugin-model-manager-common';
import { openApiDocument } from './openApiDocument';

describe('openApiDocument', () => {
  const document = openApiDocument() as any;

  it('is a valid OpenAPI 3.0 document', async () => {
    await expect(
      SwaggerParser.validate(structuredClone(document)),
    ).resolves.toBeDefined();
  });

  it('has every route of the contract, with its method and path parameters', () => {
    for (const [operationId, route] of Object.entries(modelManagerContract)) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation).toMatchObject({ operationId });
      const inPath = (operation.parameters ?? [])
        .filter((p: any) => p.in === 'path')
        .map((p: any) => p.name);
      expect(inPath).toEqual(
        [...route.path.matchAll(/:([A-Za-z]+)/g)].map(m => m[1]),
      );
    }
  });

  it('describes GET /fleet/events as Server-Sent Events with the schema of their data', () => {
    const events = document.paths['/fleet/events'].get.responses['200'];
    expect(Object.keys(events.content)).toEqual(['text/event-stream']);
    expect(events.content['text/event-stream']['x-event-data']).toEqual({
      $ref: '#/components/schemas/FleetEvent',
    });
    expect(document.components.schemas.FleetEvent).toMatchObject({
      type: 'object',
      required: ['clusters'],
      properties: { clusters: { type: 'array', items: { type: 'string' } } },
    });
  });

  it('carries the request schemas the router validates with', () => {
    const deploy = document.paths['/models/{name}/deploy'].post;
    const body = deploy.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['cluster', 'namespace']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['serverVersion', 'env', 'args', 'dryRun']),
    );
    const undeploy = document.paths['/models/{name}/deployment'].delete;
    expect(
      undeploy.parameters
        .filter((p: any) => p.in === 'query')
        .map((p: any) => [p.name, p.required]),
    ).toEqual([
      ['cluster', true],
      ['namespace', true],
    ]);
    const models = document.paths['/models'].get;
    expect(models.parameters.map((p: any) => p.name)).toEqual([
      'runtime',
      'version',
      'category',
      'owner',
      'q',
      'sort',
      'limit',
      'offset',
    ]);
  });

  it.each(
    Object.entries(modelManagerContract).filter(
      ([, route]) => !('events' in route && route.events),
    ),
  )('carries the answer schema of %s', (_, route) => {
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const schema =
      document.paths[path][route.method.toLowerCase()].responses['200'].content[
        'application/json'
      ].schema;
    // Every answer is an object with named fields (none is an untyped placeholder).
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).not.toEqual([]);
  });

  it('describes an answer field by field, a Kubernetes field as any JSON value', () => {
    const deploy =
      document.paths['/models/{name}/deploy'].post.responses['200'].content[
        'application/json'
      ].schema;
    expect(deploy.required).toEqual(
      expect.arrayContaining(['ok', 'action', 'model', 'objects']),
    );
    expect(deploy.properties.failure.enum).toContain('conflict');
    const change = deploy.properties.objects.items.properties.changes.items;
    expect(change.properties.rendered).toMatchObject({ nullable: true });
    expect(change.properties.rendered.type).toBeUndefined();
  });
});
