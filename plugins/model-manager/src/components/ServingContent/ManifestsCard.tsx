import { InfoCard } from '@backstage/core-components';
import Button from '@material-ui/core/Button';
import Tab from '@material-ui/core/Tab';
import Tabs from '@material-ui/core/Tabs';
import DownloadIcon from '@material-ui/icons/GetApp';
import { useState } from 'react';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { downloadText } from './downloadText';
import { toYaml } from './toYaml';
import { CodeBlock } from '../CodeBlock';

export interface ManifestsCardProps {
  /** The model's name: the downloaded file is `<model>.yaml`. */
  model: string;
  namespace: string;
  manifests: RenderedObject[];
  /** Default: `Manifests`. */
  title?: string;
}

/** Every object as one multi-document YAML file, in apply order (what `kubectl apply -f` takes). */
export function manifestsYaml(manifests: RenderedObject[]): string {
  return manifests.map(m => toYaml(m.manifest)).join('---\n');
}

/**
 * The rendered manifests: one tab per object (its kind and name), each with a copy button, and a
 * download of one .yaml file with all objects.
 */
export function ManifestsCard({
  model,
  namespace,
  manifests,
  title = 'Manifests',
}: ManifestsCardProps) {
  const [tab, setTab] = useState(0);
  const current = manifests[Math.min(tab, manifests.length - 1)];
  const fileName = `${model}.yaml`;
  return (
    <InfoCard
      title={title}
      subheader={`${manifests.length} object(s), namespace ${namespace}`}
      action={
        <Button
          startIcon={<DownloadIcon />}
          onClick={() =>
            downloadText(fileName, manifestsYaml(manifests), 'application/yaml')
          }
          disabled={manifests.length === 0}
        >
          Download {fileName}
        </Button>
      }
    >
      <Tabs
        value={Math.min(tab, Math.max(manifests.length - 1, 0))}
        onChange={(_e, v) => setTab(v)}
        variant="scrollable"
        scrollButtons="auto"
        aria-label="Manifests"
      >
        {manifests.map(m => (
          <Tab
            key={`${m.kind}/${m.namespace ?? ''}/${m.name}`}
            label={`${m.kind} ${m.name}`}
          />
        ))}
      </Tabs>
      {current && (
        <div role="tabpanel" aria-label={`${current.kind} ${current.name}`}>
          <CodeBlock
            language="yaml"
            text={toYaml(current.manifest)}
            showCopyCodeButton
          />
        </div>
      )}
    </InfoCard>
  );
}
