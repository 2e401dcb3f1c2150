export {
  PROGRESS_READERS,
  PROGRESS_READER_NAMES,
  type ProgressReader,
  type ProgressReaderName,
} from './progressReaders';
export {
  progressObjectOf,
  progressProblems,
  type ProgressObject,
} from './progressObjectOf';
