import { renderInTestApp } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import { CodeBlock } from './CodeBlock';

/** WCAG 2.1 relative luminance of a CSS colour (#rgb, #rrggbb or rgb()). */
function luminance(colour: string): number {
  let rgb: number[];
  const m = colour.match(/^rgba?\((\d+),\s*(\d+),\s*(\d+)/);
  if (m) rgb = [m[1], m[2], m[3]].map(Number);
  else {
    const hex = colour.replace('#', '');
    const full =
      hex.length === 3
        ? hex
            .split('')
            .map(c => c + c)
            .join('')
        : hex;
    rgb = [0, 2, 4].map(i => parseInt(full.slice(i, i + 2), 16));
  }
  const [r, g, b] = rgb.map(v => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

const MANIFEST = `apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: qwen2-5-7b-instruct # the model
  labels:
    app.kubernetes.io/managed-by: model-manager
spec:
  replicas: 1
  enabled: true
  template:
    containers:
      - name: main
        args: ["--max-model-len", "8192"]
`;

describe('CodeBlock', () => {
  it('highlights a manifest with every token colour at WCAG AA contrast (4.5:1) on its background', async () => {
    await renderInTestApp(
      <CodeBlock language="yaml" text={MANIFEST} showCopyCodeButton />,
    );
    const pre = await waitFor(() => {
      const found = document.querySelector('pre');
      expect(found).not.toBeNull();
      // Highlighted: the language loaded and the tokens are coloured.
      expect(
        found!.querySelectorAll('span[style*="color"]').length,
      ).toBeGreaterThan(5);
      return found!;
    });
    const background = pre.style.background || pre.style.backgroundColor;
    expect(background).not.toBe('');
    const colours = new Set<string>([pre.style.color]);
    pre
      .querySelectorAll<HTMLElement>('span[style*="color"]')
      .forEach(s => colours.add(s.style.color));
    const low = [...colours].filter(c => contrast(c, background) < 4.5);
    expect(low).toEqual([]);
    expect(pre.textContent).toBe(MANIFEST);
    expect(screen.getByRole('button', { name: /copy/i })).toBeInTheDocument();
  });
});
