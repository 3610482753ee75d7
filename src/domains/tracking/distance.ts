/** Mean Earth radius (IUGG), metres: what haversine distances are computed with. */
const EARTH_RADIUS_M = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance between two points, in metres (haversine). */
export function haversineMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a path through the points in their order, in metres, rounded to the metre. */
export function pathMetres(points: ReadonlyArray<{ latitude: number; longitude: number }>): number {
  let total = 0;
  for (let i = 1; i < points.length; i += 1) total += haversineMetres(points[i - 1], points[i]);
  return Math.round(total);
}
