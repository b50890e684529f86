/** Builds dist/ when it is missing or older than a source; returns false when the build failed. */
export function freshDist(say?: (line: string) => void): boolean;
