import { expect, test } from '../fixtures';
import { pickModel, shot } from '../steps';

/**
 * Deploy model (issue 26): the form knows the chosen model. A MoE-only flag on a dense model is
 * refused beside the row, naming who can change that; flags typed for a vLLM model are cleared,
 * saying so, when the model becomes an OpenVINO one; the cluster is a picker.
 */
const VLLM_MODEL = 'qwen2-5-7b-instruct';
const OPENVINO_MODEL = 'bge-small-en-v1-5-ov';

test('flags belong to the model: a MoE-only flag is refused beside it, and flags of another engine are cleared saying so', async ({
  page,
}) => {
  await page.goto('/create/templates/default/deploy-model');
  await page.getByRole('button', { name: 'Enter' }).click();
  await pickModel(page, VLLM_MODEL);

  // The cluster is a picker of the configured clusters.
  await expect(page.getByTestId('cluster-picker')).toContainText('local');

  await page.getByRole('button', { name: 'Add flag' }).click();
  await page.getByTestId('arg-0').fill('--enable-expert-parallel');
  // Said beside the row (the flag's helper text, which the input is described by).
  const refused = page.locator('[id="root_args_0-helper-text"]');
  await expect(refused).toContainText(
    /is a MoE-only flag and crashes dense models/,
  );
  await expect(refused).toContainText(
    "Only the model's owner (group:default/ml-platform) can mark it a mixture-of-experts model, with moe: true on the model in models.yaml",
  );
  await expect(page.getByTestId('arg-0')).toHaveAttribute(
    'aria-describedby',
    (await refused.getAttribute('id'))!,
  );
  // Refused before submit: Review does not go on.
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByText(
      "'Server flags' has a flag to fix: the reason is shown beside it",
    ),
  ).toBeVisible();
  await shot(page, 'issue26-01-moe-flag-refused');

  // A flag vLLM reads; then back to the Model step and an OpenVINO model.
  await page.getByTestId('arg-0').fill('--max-model-len=4096');
  await expect(refused).toHaveCount(0);
  await expect(page.getByTestId('arg-0')).toHaveValue('--max-model-len=4096');
  await page.getByRole('button', { name: 'Back' }).click();
  await pickModel(page, OPENVINO_MODEL);
  await expect(page.getByTestId('args-cleared')).toHaveText(
    `Cleared --max-model-len=4096: typed for a vllm model, and ${OPENVINO_MODEL} runs on openvino, whose server does not read vllm's flags.`,
  );
  await expect(page.getByTestId('arg-0')).toHaveCount(0);
  await shot(page, 'issue26-02-flags-cleared');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(
    page.getByRole('row').filter({ hasText: 'Server flags' }),
  ).toHaveCount(0);
});
