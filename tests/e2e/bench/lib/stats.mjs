// What the benchmarks share: the median and a percentile of a list of times, a figure to one
// decimal, and the 100-replica manifest the Plan page's benchmarks forecast and sweep.

/** The middle value (the lower of the two middle ones). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/** The value `p` % of the list is at or below (nearest rank). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

/** To one decimal. */
export const round1 = (x) => Math.round(x * 10) / 10;

/** A Deployment of 100 replicas as people write one, with the rolling update's two settings. */
export const manifest100 = (surge, unavailable) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 100
  selector:
    matchLabels: {app: web}
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: ${surge}, maxUnavailable: ${unavailable}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.14.2"}]
`;
