import type { ExampleTemplate } from './example-template.js';
import { passwordReset } from './password-reset.js';
import { receipt } from './receipt.js';
import { welcome } from './welcome.js';

export type { ExampleTemplate } from './example-template.js';

/** The starter templates `posthorn template install-examples` installs. */
export const EXAMPLE_TEMPLATES: readonly ExampleTemplate[] = [welcome, passwordReset, receipt];
