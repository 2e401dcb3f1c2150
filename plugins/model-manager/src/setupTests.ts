import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// findBy* and waitFor give up after this long (1 s by default). These are upper bounds, reached
// only when something is wrong; on a busy CI machine a page that renders 10,000 rows, or waits for
// typing to pause, can take well over a second.
configure({ asyncUtilTimeout: 15_000 });
