import { parseQuantity } from './parseQuantity';

// k8s.io/apimachinery/pkg/api/resource/quantity.go: binary (Ki..Ei), decimal (k..E), milli, exponent.
const rows = [
  {
    rule: 'binary suffixes are powers of 1024',
    quantity: '16Gi',
    bytes: 16 * 2 ** 30,
  },
  {
    rule: 'decimal suffixes are powers of 1000',
    quantity: '500M',
    bytes: 500e6,
  },
  { rule: 'a plain number is bytes', quantity: 8, bytes: 8 },
  {
    rule: 'an exponent multiplies by a power of ten',
    quantity: '1e9',
    bytes: 1e9,
  },
  { rule: 'fractions are allowed', quantity: '1.5Gi', bytes: 1.5 * 2 ** 30 },
  {
    rule: 'anything else is not a quantity',
    quantity: 'lots',
    bytes: undefined,
  },
];

describe('parseQuantity', () => {
  it.each(rows)('$rule', ({ quantity, bytes }) => {
    expect(parseQuantity(quantity)).toBe(bytes);
  });
});
