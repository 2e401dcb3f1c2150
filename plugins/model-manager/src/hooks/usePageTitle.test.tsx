import { renderInTestApp } from '@backstage/test-utils';
import { usePageTitle } from './usePageTitle';

function Titled({ title }: { title: string }) {
  usePageTitle(title);
  return <span>page</span>;
}

describe('usePageTitle', () => {
  it('names the browser tab after the page and the app, and gives the previous title back', async () => {
    document.title = 'Catalog | Backstage';
    const { unmount } = await renderInTestApp(<Titled title="Models" />);
    expect(document.title).toBe('Models | Backstage');
    unmount();
    expect(document.title).toBe('Catalog | Backstage');
  });
});
