import { useApi } from '@backstage/core-plugin-api';
import type {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import Button from '@material-ui/core/Button';
import FormHelperText from '@material-ui/core/FormHelperText';
import Typography from '@material-ui/core/Typography';
import DownloadIcon from '@material-ui/icons/GetApp';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type ModelManagerApi } from '../../api';
import { downloadText } from '../ServingContent/downloadText';
import { manifestsYaml } from '../ServingContent/ManifestsCard';
import { modelNameOf } from './ServerVersionPicker';

type Form = Record<string, any>;

/** The render request of the form's choices (what the template's render step sends). */
function renderRequest(form: Form) {
  return {
    cluster: form.cluster,
    namespace: form.namespace,
    ...(form.serverVersion ? { serverVersion: form.serverVersion } : {}),
    ...(form.env && Object.keys(form.env).length ? { env: form.env } : {}),
    ...(form.args?.length ? { args: form.args } : {}),
  };
}

/**
 * "Propose model deployment (pull request)": whether the portal can open the pull request on the
 * chosen repository (GET /gitops/pull-request-readiness: a GitHub integration with a token or an
 * App for its host), said before the template runs instead of as a stack trace on its last step;
 * and, whatever the answer, the objects the pull request would add as one .yaml file to download
 * (the same render the template's first step asks for). Its value is the answer in words, which
 * the Review step shows.
 */
export function PullRequestCheck(
  props: FieldExtensionComponentProps<string | undefined>,
) {
  const { formData, onChange, schema, formContext } = props;
  const form = ((formContext as any)?.formData ?? {}) as Form;
  const repoUrl: string | undefined = form.repoUrl;
  const model = modelNameOf(form.model);
  const api = useApi(modelManagerApiRef);
  const readiness = useAsync(
    async () =>
      repoUrl && api.pullRequestReadiness
        ? api.pullRequestReadiness(repoUrl)
        : undefined,
    [api, repoUrl],
  );
  const message = readiness.value?.message;
  useEffect(() => {
    if (message !== formData) onChange(message);
  }, [message, formData, onChange]);
  const [downloading, setDownloading] = useState<string>();

  const fileName = `${model}-${form.cluster}-${form.namespace}.yaml`;
  const download = async () => {
    setDownloading('Rendering…');
    try {
      const objects = await api.render(model!, renderRequest(form));
      downloadText(fileName, manifestsYaml(objects), 'application/yaml');
      setDownloading(undefined);
    } catch (e) {
      setDownloading(`Could not render the objects: ${(e as Error).message}`);
    }
  };

  return (
    <div data-testid="pull-request-check">
      <Typography variant="subtitle2">
        {schema.title ?? 'Pull request'}
      </Typography>
      {!repoUrl ? (
        <FormHelperText>Pick the repository above first.</FormHelperText>
      ) : readiness.loading ? (
        <FormHelperText>Checking the portal's GitHub access…</FormHelperText>
      ) : readiness.error ? (
        <FormHelperText error>
          Could not check the portal's GitHub access: {readiness.error.message}
        </FormHelperText>
      ) : (
        <FormHelperText error={!readiness.value?.ready}>
          {message}
        </FormHelperText>
      )}
      {model && form.cluster && form.namespace && (
        <>
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={download}
            disabled={downloading === 'Rendering…'}
          >
            Download {fileName}
          </Button>
          <FormHelperText error={false}>
            {downloading ??
              'Every object the pull request adds, in one file (kubectl apply -f takes it), whether or not the pull request can be opened.'}
          </FormHelperText>
        </>
      )}
    </div>
  );
}

/** Blocks the step while the portal cannot open the pull request, saying why and who can fix it. */
export const pullRequestCheckValidation: CustomFieldValidator<
  string | undefined
> = async (_value, validation, context) => {
  const repoUrl = (context as any)?.formData?.repoUrl;
  const api = context?.apiHolder?.get(modelManagerApiRef) as
    | ModelManagerApi
    | undefined;
  if (!repoUrl || !api?.pullRequestReadiness) return;
  const readiness = await api.pullRequestReadiness(repoUrl);
  if (!readiness.ready) validation.addError(readiness.message);
};
