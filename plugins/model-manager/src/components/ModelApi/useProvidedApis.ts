import {
  RELATION_PROVIDES_API,
  stringifyEntityRef,
  type Entity,
} from '@backstage/catalog-model';
import { useApi } from '@backstage/core-plugin-api';
import {
  catalogApiRef,
  getEntityRelations,
  useEntity,
} from '@backstage/plugin-catalog-react';
import useAsync from 'react-use/esm/useAsync';

/** The API entities the page's entity provides (its `providesApis`, as catalog relations). */
export function useProvidedApis(): {
  refs: string[];
  apis?: Entity[];
  loading: boolean;
  error?: Error;
} {
  const { entity } = useEntity();
  const catalogApi = useApi(catalogApiRef);
  const refs = getEntityRelations(entity, RELATION_PROVIDES_API).map(ref =>
    stringifyEntityRef(ref),
  );
  const key = refs.join(',');
  const { value, loading, error } = useAsync(async () => {
    if (refs.length === 0) return [];
    const { items } = await catalogApi.getEntitiesByRefs({
      entityRefs: refs,
    });
    return items.filter((e): e is Entity => Boolean(e));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catalogApi, key]);
  return { refs, apis: value, loading, error };
}
