import { MeasureLibraryRecord } from './measure-library.entity';
import { MeasurePackageLibraryRecord, MeasurePackageRecord, MeasurePackageValueSetRecord } from './measure-package.entity';
import { ValueSetCodeRecord, ValueSetExpansionRecord } from './value-set-expansion.entity';

export { MeasureLibraryRecord, MeasurePackageLibraryRecord, MeasurePackageRecord, MeasurePackageValueSetRecord, ValueSetCodeRecord, ValueSetExpansionRecord };

export const MEASURE_PACKAGE_ENTITIES = [MeasurePackageRecord, MeasureLibraryRecord, MeasurePackageLibraryRecord, ValueSetExpansionRecord, ValueSetCodeRecord, MeasurePackageValueSetRecord];
