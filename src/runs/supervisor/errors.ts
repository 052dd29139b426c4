/** The supervisor's refusals, as RimthanErrors with the run tools' stable codes. Messages carry no participant data. */
import { RimthanError } from '../../core/errors.js';
import type { RunRecord } from '../store/types.js';

export function runNotFound(): RimthanError {
  return new RimthanError('not_found', 'run not found');
}

export function runConflict(message: string): RimthanError {
  return new RimthanError('conflict', message);
}

export function unknownDefinition(record: RunRecord): RimthanError {
  return new RimthanError(
    'unknown_definition',
    `flow ${record.definition_name}@${record.definition_version} is not registered`,
  );
}
