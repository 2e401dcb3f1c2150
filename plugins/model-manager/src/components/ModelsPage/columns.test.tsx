import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { OwnerLink } from './columns';

describe('OwnerLink', () => {
  it.each([
    [
      'group:default/ml-platform',
      'ml-platform',
      '/catalog/default/group/ml-platform',
    ],
    ['user:team-a/alice', 'team-a/alice', '/catalog/team-a/user/alice'],
    ['ml-platform', 'ml-platform', '/catalog/default/group/ml-platform'],
  ])(
    '%s links to the owner, named as a person reads it',
    async (owner, text, href) => {
      await renderInTestApp(<OwnerLink owner={owner} />);
      const link = screen.getByRole('link', { name: text });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('title', owner);
    },
  );
});
