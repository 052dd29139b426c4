/**
 * package: where this installed package lives and what its manifest says. The one place that looks for the package's
 * own files (package.json, releases/, docs/) on disk, so the pure rooms below it never read files.
 */
export { packageRoot } from './root.js';
export { packageFacts, packageVersion, type PackageFacts } from './manifest.js';
