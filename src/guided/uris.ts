/** Resource URIs (resources-prompts-adapters.md) the step payload points the harness at. */

const base = (release: string): string => `rimthan://registry/${release}`;

export const resourceUri = {
  summary: (release: string): string => `${base(release)}/summary`,
  manifest: (release: string): string => `${base(release)}/manifest`,
  workflow: (release: string, id: string, version: string): string =>
    `${base(release)}/workflows/${id}/${version}/definition`,
  step: (release: string, id: string, version: string, stepId: string): string =>
    `${base(release)}/workflows/${id}/${version}/steps/${stepId}`,
  asset: (release: string, kind: string, id: string, version: string): string =>
    `${base(release)}/assets/${kind}/${id}/${version}/content`,
  validator: (release: string, id: string, version: string): string => `${base(release)}/validators/${id}/${version}`,
  schema: (release: string, id: string, version: string): string => `${base(release)}/schemas/${id}/${version}`,
} as const;
