#include "hinesbatch/simulation/run_outputs.hpp"

#include <cstdio>

#include "hinesbatch/core/error.hpp"

#ifdef HINESBATCH_HAVE_HDF5
#include <hdf5.h>
#endif

namespace hinesbatch {

bool have_hdf5() {
#ifdef HINESBATCH_HAVE_HDF5
  return true;
#else
  return false;
#endif
}

#ifdef HINESBATCH_HAVE_HDF5
namespace {

// An HDF5 handle closed on scope exit by its own close function.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(bool ok, const std::string& what, const std::string& path) {
  if (!ok) throw InputError("cannot write the SONATA spike report: " + what, path);
}

void write_dataset(hid_t group, const char* name, hid_t file_type, hid_t memory_type,
                   const void* data, std::size_t n, const std::string& path) {
  const hsize_t dims[1] = {static_cast<hsize_t>(n)};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  check(space.get() >= 0, "dataspace", path);
  Handle set(H5Dcreate2(group, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
             H5Dclose);
  check(set.get() >= 0, std::string("dataset ") + name, path);
  if (n > 0)
    check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0,
          std::string("dataset ") + name, path);
  if (std::string(name) == "timestamps") {
    // units = "ms": a variable-length UTF-8 string, as libsonata writes it.
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Handle scalar(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(
        H5Acreate2(set.get(), "units", type.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    const char* units = "ms";
    check(attribute.get() >= 0 && H5Awrite(attribute.get(), type.get(), &units) >= 0,
          "attribute units", path);
  }
}

}  // namespace
#endif

void write_sonata_spikes(OutputFile& file, const std::vector<std::int64_t>& gids,
                         const std::vector<double>& times, const std::string& population) {
#ifdef HINESBATCH_HAVE_HDF5
  if (gids.size() != times.size())
    throw InputError("SONATA spike report: " + std::to_string(gids.size()) + " gids but " +
                     std::to_string(times.size()) + " times");
  for (std::size_t i = 1; i < times.size(); ++i)
    if (times[i] < times[i - 1])
      throw InputError("SONATA spike report: spikes must be sorted by time (spike " +
                       std::to_string(i) + ")");
  std::vector<std::uint64_t> ids(gids.size());
  for (std::size_t i = 0; i < gids.size(); ++i) {
    if (gids[i] < 0)
      throw InputError("SONATA spike report: negative gid", {}, 0, std::to_string(gids[i]));
    ids[i] = static_cast<std::uint64_t>(gids[i]);
  }
  const std::string temporary = file.temporary_for_writer();
  {
    // HDF5 prints its own error stack by default: our message names the file instead.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle f(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    check(f.get() >= 0, "cannot create the HDF5 file", file.path());
    Handle spikes(H5Gcreate2(f.get(), "spikes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    check(spikes.get() >= 0, "group /spikes", file.path());
    Handle pop(H5Gcreate2(spikes.get(), population.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
               H5Gclose);
    check(pop.get() >= 0, "group /spikes/" + population, file.path());
    // sorting: SONATA's enum (none 0, by_id 1, by_time 2) over uint8, as libsonata writes it.
    Handle sorting(H5Tenum_create(H5T_NATIVE_UINT8), H5Tclose);
    const unsigned char none = 0, by_id = 1, by_time = 2;
    H5Tenum_insert(sorting.get(), "none", &none);
    H5Tenum_insert(sorting.get(), "by_id", &by_id);
    H5Tenum_insert(sorting.get(), "by_time", &by_time);
    Handle scalar(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attribute(
        H5Acreate2(pop.get(), "sorting", sorting.get(), scalar.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    check(attribute.get() >= 0 && H5Awrite(attribute.get(), sorting.get(), &by_time) >= 0,
          "attribute sorting", file.path());
    write_dataset(pop.get(), "timestamps", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, times.data(),
                  times.size(), file.path());
    write_dataset(pop.get(), "node_ids", H5T_STD_U64LE, H5T_NATIVE_UINT64, ids.data(), ids.size(),
                  file.path());
    check(H5Fflush(f.get(), H5F_SCOPE_GLOBAL) >= 0, "flush", file.path());
  }
  file.commit();
#else
  (void)gids;
  (void)times;
  (void)population;
  throw InputError(
      "this build of HinesBatch has no HDF5 (Debian: libhdf5-dev, then reconfigure): "
      "cannot write the SONATA spike report",
      file.path());
#endif
}

void write_sonata_spikes(const std::string& path, const std::vector<std::int64_t>& gids,
                         const std::vector<double>& times, const std::string& population) {
  OutputFile file(path, "SONATA spikes file");
  write_sonata_spikes(file, gids, times, population);
}

void write_spikes_text(OutputFile& file, const std::vector<std::int64_t>& gids,
                       const std::vector<double>& times) {
  for (std::size_t i = 0; i < gids.size(); ++i)
    file.printf("%lld %.6f\n", static_cast<long long>(gids[i]), times[i]);
}

RunOutputs::RunOutputs(const SimulationOutputs& outputs, const std::string& traces_path, int rank)
    : outputs_(outputs) {
  if (rank == 0 && !outputs.spikes.empty())
    spikes_ = std::make_unique<OutputFile>(outputs.spikes, "spikes file");
  if (rank == 0 && !outputs.spikes_sonata.empty()) {
    if (!have_hdf5())
      throw InputError(
          "config key 'output.spikes_sonata': this build of HinesBatch has no HDF5 "
          "(Debian: libhdf5-dev, then reconfigure)",
          {}, 0, outputs.spikes_sonata);
    sonata_ = std::make_unique<OutputFile>(outputs.spikes_sonata, "SONATA spikes file");
  }
  if (rank == 0 && !outputs.metrics.empty())
    metrics_ = std::make_unique<OutputFile>(outputs.metrics, "metrics file");
  if (!traces_path.empty()) traces_ = std::make_unique<OutputFile>(traces_path, "traces file");
}

void RunOutputs::start(const std::vector<RecordSpec>& local_records) {
  records_ = local_records;
  if (records_.empty()) traces_.reset();
}

void RunOutputs::on_epoch(const EpochReport& e) {
  if (!traces_ || e.rows.empty()) return;
  OutputFile& f = *traces_;
  if (!header_written_) {
    f.printf("t");
    // A column other than v names its variable: g0_s0_x0.5 is v, g0_s0_x0.5_cai is cai,
    // g0_syn3_g is g of gid 0's synapse 3.
    for (const RecordSpec& rec : records_) {
      if (rec.artificial) {  // g4_m is m of artificial cell 4
        f.printf(",g%lld_%s", static_cast<long long>(rec.gid), rec.variable.c_str());
        continue;
      }
      if (rec.synapse >= 0) {
        f.printf(",g%lld_syn%d_%s", static_cast<long long>(rec.gid), rec.synapse,
                 rec.variable.c_str());
        continue;
      }
      f.printf(",g%lld_s%d_x%g", static_cast<long long>(rec.gid), rec.where.section, rec.where.x);
      if (rec.variable != "v") f.printf("_%s", rec.variable.c_str());
    }
    f.printf("\n");
    header_written_ = true;
  }
  for (std::size_t j = 0; j < e.rows.size(); ++j) {
    f.printf("%.9g", static_cast<double>(e.first_row + static_cast<std::int64_t>(j)) * e.record_dt);
    for (const double v : e.rows[j]) f.printf(",%.9g", v);
    f.printf("\n");
  }
  f.flush();
}

void RunOutputs::finish(const SimulationResult& r, const std::string& config_path) {
  if (spikes_) {
    write_spikes_text(*spikes_, r.spike_gids, r.spike_times);
    spikes_->commit();
  }
  if (sonata_)
    write_sonata_spikes(*sonata_, r.spike_gids, r.spike_times, outputs_.sonata_population);
  if (traces_) traces_->commit();
  if (metrics_) {
    metrics_->write(metrics_json(r, config_path));
    metrics_->commit();
  }
}

}  // namespace hinesbatch
