import TextField from '@material-ui/core/TextField';
import {
  MODEL_SORT_FIELDS,
  type ModelFacets,
  type ModelSort,
} from '@model-manager/plugin-model-manager-common';
import { FilterBar } from '../FilterBar';
import { FILTER_LABEL_PROPS, FilterSelect } from '../FilterSelect';
import { MODEL_FILTERS, type ModelFilter, type ModelsView } from './modelsView';

const FILTER_TITLES: Record<ModelFilter, string> = {
  runtime: 'Runtime',
  version: 'Version',
  category: 'Category',
  owner: 'Owner',
};

const FACET_OF: Record<ModelFilter, keyof ModelFacets> = {
  runtime: 'runtimes',
  version: 'versions',
  category: 'categories',
  owner: 'owners',
};

const SORT_TITLES: Record<(typeof MODEL_SORT_FIELDS)[number], string> = {
  name: 'Name',
  modelId: 'Model ID',
  runtime: 'Runtime',
  category: 'Category',
  version: 'Version',
  owner: 'Owner',
};

/** The search box, a select per filter (choices from the whole catalog) and the sort. */
export function ModelsFilters(props: {
  view: ModelsView;
  /** What is typed in the search box (the URL follows after a pause). */
  text: string;
  onText: (text: string) => void;
  facets?: ModelFacets;
  onFilter: (key: ModelFilter, value: string) => void;
  onSort: (sort: ModelSort) => void;
  onClear: () => void;
}) {
  const { view, facets } = props;
  const choices = (key: ModelFilter) => {
    const values = facets?.[FACET_OF[key]] ?? [];
    const current = view.filters[key];
    return current && !values.includes(current) ? [current, ...values] : values;
  };
  return (
    <FilterBar
      filtered={Object.keys(view.filters).length > 0 || !!view.q}
      onClear={props.onClear}
    >
      <TextField
        id="models-search"
        label="Search"
        placeholder="name, model ID, description, tag"
        value={props.text}
        onChange={e => props.onText(e.target.value)}
        InputLabelProps={FILTER_LABEL_PROPS}
        style={{ minWidth: 260 }}
      />
      {MODEL_FILTERS.map(key => (
        <FilterSelect
          key={key}
          id={`models-filter-${key}`}
          label={FILTER_TITLES[key]}
          value={view.filters[key]}
          options={choices(key)}
          onChange={value => props.onFilter(key, value)}
        />
      ))}
      <TextField
        id="models-sort"
        select
        label="Sort by"
        value={view.sort}
        onChange={e => props.onSort(e.target.value as ModelSort)}
        SelectProps={{ native: true }}
        InputLabelProps={FILTER_LABEL_PROPS}
        style={{ minWidth: 160 }}
      >
        {MODEL_SORT_FIELDS.flatMap(f => [
          <option key={f} value={f}>
            {SORT_TITLES[f]}
          </option>,
          <option key={`-${f}`} value={`-${f}`}>
            {SORT_TITLES[f]} (descending)
          </option>,
        ])}
      </TextField>
    </FilterBar>
  );
}
