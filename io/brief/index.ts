/** io/brief's public surface: the brief rules dispatch checks before anything is created. */
export { parseBrief, briefLines, type BriefShape, type ReadFirstSection } from './brief-sections.ts';
export { validateReadPaths, checkReadPath, readNoteFile, MAX_NOTE_BYTES, type StagedFile } from './read-paths.ts';
export { resolveStandingFiles, standingFilePath, FILE_SAFE_PROJECT, type StandingFile, type StandingKind } from './standing-files.ts';
export { countIndexEntries, statesIndexChecked, indexRuleRefusal, readIndexFacts, indexPaths, INDEX_CHECKED_LINE, type IndexFacts } from './index-rule.ts';
export { composeBrief, attachmentLine, copyPath, LEAD_IN, type Attachment } from './brief-compose.ts';
export { planBrief, writeBriefPlan, undoBriefWrite, loadBriefText, type BriefPlan, type Created } from './stage-brief.ts';
