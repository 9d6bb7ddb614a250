// A PostgreSQL array literal for a parameter cast to an array type (`$1::uuid[]`). Drivers only
// serialise JS arrays for array types they learnt when they connected, and an enum created by a
// migration after that is unknown to them: text in the array's literal syntax works on every
// driver and every database.
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
